"""Which config files a Python file loads: the reach of the config uses written in it (issue 26, item 1).

A read or store of ``cfg.trainer.gpus`` in a script only sees the configs that script loads, so only those are
held back for it; a clash with flags passed next to ``**cfg.trainer`` only concerns the configs that reach that call.
The loads are read from the file's own code, with ``ast``:

* ``@hydra.main(config_path="conf", ...)`` and wrappers that take the same ``config_path`` (NeMo's
  ``@hydra_runner``), ``hydra.initialize(config_path=...)`` (all relative to the file's folder) and
  ``initialize_config_dir(config_dir=...)``: every config under that folder (any of them can be picked with
  ``--config-name`` or a config group, so the folder is the unit, not the ``config_name``);
* ``OmegaConf.load("conf/x.yaml")``, ``yaml.safe_load(open("x.yaml"))``-style loads of a literal path: that file,
  relative to the file's folder or to the project's root (the usual working folder); ``os.path.join(folder,
  "x.yaml")``: every config named ``x.yaml``;
* anything else that loads a config (a path in a variable, ``compose`` without ``initialize``, a
  LightningCLI's ``--config``): :data:`UNKNOWN`, every config;
* a config built in code, from no file: ``@hydra_runner(config_path=None)``, or NeMo's ``hydra_runner`` given
  ``schema=`` and no folder (the class registered under ``config_name`` is the config), and a script (``__main__``)
  that loads nothing and builds its config with ``OmegaConf.structured(...)`` or a ``...Config()`` call:
  :data:`NONE`, no config file. NeMo's ``hydra_runner`` without ``config_path`` searches its file's folder (its
  default is ``"."``).

A file that loads nothing (a library module handed a config by its caller) reaches every config too: the caller is
not known. Standard library only.
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Collection
from functools import cache

#: A load whose file cannot be told: the file's uses reach every config.
UNKNOWN = "?"
#: The file builds its config in code, from no config file: its uses reach none.
NONE = "-"
#: Marks the primary config of a Hydra folder load (``config_name=``): the folder's other top-level configs are
#: reached only through ``--config-name`` (:func:`reaches`' ``names``).
PRIMARY = "primary:"
#: Marks a file name joined to a folder the code computes: any config of that name.
BASENAME = "name:"
#: Marks a literal path that is read from the working folder (resolved against the project's root).
FROM_ROOT = "root:"

_DIRECTORY_CALLEES = {"main": "config_path", "hydra_runner": "config_path", "initialize": "config_path"}
_LOADERS = frozenset({"load", "safe_load", "full_load", "unsafe_load", "create"})
_WORDS = (b"hydra", b"config_path", b"OmegaConf", b"yaml", b"compose", b"CLI", b"config_dir", b"__main__")


def _name(func: ast.expr) -> str:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _text(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((keyword.value for keyword in call.keywords if keyword.arg == name), None)


def _file_argument(call: ast.Call) -> ast.expr | None:
    """The path a loader reads: ``OmegaConf.load(p)``, ``yaml.safe_load(open(p))``,
    ``safe_load(Path(p).read_text())``."""
    arg = call.args[0] if call.args else _keyword(call, "file_") or _keyword(call, "stream")
    while isinstance(arg, ast.Call):
        inner = _name(arg.func)
        if inner in ("open", "Path") and arg.args:
            arg = arg.args[0]
            break
        if inner in ("read_text", "read") and isinstance(arg.func, ast.Attribute):
            arg = arg.func.value
            continue
        return arg if inner == "join" else None
    return arg


def config_loads(tree: ast.Module, path: str, data: bytes | str = b"") -> tuple[str, ...]:
    """The folders and files of configs ``path`` loads (absolute), :data:`FROM_ROOT` paths, or :data:`UNKNOWN`;
    empty where the file loads nothing."""
    raw = data.encode() if isinstance(data, str) else data
    if raw and not any(word in raw for word in _WORDS):
        return ()
    here = os.path.dirname(os.path.abspath(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = _name(node.func)
        if name in _DIRECTORY_CALLEES or name == "initialize_config_dir":
            argument = "config_dir" if name == "initialize_config_dir" else _DIRECTORY_CALLEES[name]
            value = _keyword(node, argument)
            if value is None and name == "initialize" and node.args:
                value = node.args[0]
            if value is None and name in ("main", "initialize"):
                continue  # another library's main(), or hydra's without a folder: not a config load we know
            if name == "hydra_runner" and value is None:
                # NeMo's wrapper: a schema= names the config (a class); without one, config_path defaults to "."
                found.add(NONE if _keyword(node, "schema") is not None else here)
                continue
            if isinstance(value, ast.Constant) and value.value is None:
                found.add(NONE)  # config_path=None: the config comes from the ConfigStore, not a file
                continue
            folder = _text(value)
            primary = _text(_keyword(node, "config_name"))
            if folder is not None and folder.endswith((".yaml", ".yml")) and primary is None:
                folder, primary = os.path.split(folder)  # Hydra 0.11: config_path named the primary config file
            found.add(UNKNOWN if folder is None else os.path.normpath(os.path.join(here, folder)))
            if folder is not None and primary and name_keyword_only(node):
                found.add(PRIMARY + os.path.normpath(os.path.join(here, folder, primary)))
        elif name == "compose" or name.endswith("CLI"):
            found.add(UNKNOWN)
        elif name in _LOADERS and isinstance(node.func, ast.Attribute):
            owner = _name(node.func.value)
            if owner not in ("OmegaConf", "yaml", "YAML", "oc", "om") or (name == "create" and owner != "OmegaConf"):
                continue
            if name == "create":
                continue  # a config built in code, not a file
            loaded = _bound(_file_argument(node), tree)
            literal = _text(loaded)
            base = _joined_name(loaded)
            if base is not None:
                found.add(BASENAME + base)  # os.path.join(folder, "x.yaml"): a file of that name, wherever it is
            elif literal is None:
                found.add(UNKNOWN)
            else:
                found.add(os.path.normpath(os.path.join(here, literal)))
                found.add(FROM_ROOT + os.path.normpath(literal))
    if not found and _builds_own(tree):
        found.add(NONE)
    return tuple(sorted(found))


def _bound(node: ast.expr | None, tree: ast.Module) -> ast.expr | None:
    """A name the file binds once (``config_file = os.path.join(tmpdir, "x.yaml")``): its value; else ``node``."""
    if not isinstance(node, ast.Name):
        return node
    values = [
        statement.value
        for statement in ast.walk(tree)
        if isinstance(statement, ast.Assign)
        and len(statement.targets) == 1
        and isinstance(statement.targets[0], ast.Name)
        and statement.targets[0].id == node.id
    ]
    return values[0] if len(values) == 1 else node


def name_keyword_only(call: ast.Call) -> bool:
    """Whether the call names its config only by keywords (no positional argument could be a second name)."""
    return not call.args


def _joined_name(node: ast.expr | None) -> str | None:
    """``os.path.join(folder, "x.yaml")`` (or ``Path(folder) / "x.yaml"``) -> ``x.yaml``: a config file's name."""
    last: ast.expr | None = None
    if isinstance(node, ast.Call) and _name(node.func) == "join" and node.args:
        last = node.args[-1]
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        last = node.right
    name = _text(last)
    return name if name is not None and name.endswith((".yaml", ".yml")) and "/" not in name else None


def _builds_own(tree: ast.Module) -> bool:
    """A script (``if __name__ == "__main__"``) that builds its config in code: ``cfg = OmegaConf.structured(...)``
    or ``cfg = SomethingConfig(...)``."""
    script = any(isinstance(node, ast.If) and "__main__" in ast.dump(node.test) for node in tree.body)
    if not script:
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            name = _name(node.value.func)
            if name == "structured" or name.endswith(("Config", "Conf")):
                return True
    return False


def reaches(
    loads: tuple[str, ...], config: str, root: str, names: frozenset[str] | None = None, composed: bool = True
) -> bool:
    """Whether a file with these ``loads`` may see the config file ``config`` (both sides absolute or resolved
    against ``root``). No loads, or an unknown one: every config; only :data:`NONE`: none.

    A Hydra folder with a primary config (``config_name="a"``) reaches that config, the config groups under the
    folder, and those of its top-level configs that some command picks with ``--config-name`` (``names``: every name
    the project's files pass so; None: unknown, every one), unless the primary config composes others
    (``composed``: it has a ``defaults:`` list, which may name a sibling)."""
    if not loads or UNKNOWN in loads:
        return True
    target = os.path.abspath(config)
    primaries = {load[len(PRIMARY) :] for load in loads if load.startswith(PRIMARY)}
    for load in loads:
        if load == NONE or load.startswith(PRIMARY):
            continue
        place = os.path.abspath(load) if not load.startswith((FROM_ROOT, BASENAME)) else None
        primary = next((p for p in primaries if os.path.dirname(os.path.abspath(p)) == place), None)
        if primary is not None and names is not None and not composed and os.path.dirname(target) == place:
            stem = os.path.splitext(os.path.basename(target))[0]
            chosen = {os.path.splitext(os.path.basename(primary))[0], *names}
            if stem not in chosen:
                continue  # a sibling of the primary config that no command picks
        if load.startswith(BASENAME):
            if os.path.basename(target) == load[len(BASENAME) :]:
                return True
            continue
        place = (
            os.path.normpath(os.path.join(root or ".", load[len(FROM_ROOT) :])) if load.startswith(FROM_ROOT) else load
        )
        place = os.path.abspath(place)
        if target == place or target.startswith(place.rstrip(os.sep) + os.sep):
            return True
    return False


def packaged_away(loads: tuple[str, ...], config: str, facts: Collection[str]) -> bool:
    """Whether ``config`` reaches code with these ``loads`` only as a file of a config group under a Hydra primary
    config's folder, in a group other than ``trainer`` (``conf/hifigan/hifigan.yaml`` for ``config_path="conf"``):
    Hydra >= 1.1 puts what such a file holds under the group's name (its default package ``_group_``), so its own
    ``trainer:`` section is ``cfg.hifigan.trainer`` there, never the ``cfg.trainer`` this code reads. Only where the
    project's ``facts`` say it requires Hydra >= 1.1 (1.0 merged group files at the top), no defaults list moves a
    group with ``@`` (``package-directive``) and the file has no ``# @package`` line of its own (``packaged:<path>``,
    ``codemods.project.scan_yaml.package_facts``)."""
    if "hydra>=1.1" not in facts or "package-directive" in facts or f"packaged:{os.path.normpath(config)}" in facts:
        return False
    if not loads or UNKNOWN in loads or any(load.startswith((BASENAME, FROM_ROOT)) for load in loads):
        return False
    target = os.path.abspath(config)
    primaries = [os.path.abspath(load[len(PRIMARY) :]) for load in loads if load.startswith(PRIMARY)]
    if not primaries or any(os.path.splitext(target)[0] == primary for primary in primaries):
        return False
    if any(os.path.abspath(load) == target for load in loads if not load.startswith(PRIMARY) and load != NONE):
        return False  # loaded by its own path
    for folder in {os.path.dirname(primary) for primary in primaries}:
        parts = os.path.relpath(target, folder).split(os.sep)
        if len(parts) < 2 or parts[0] in ("..", "trainer"):
            return False
    return True


@cache
def composes(primary: str) -> bool:
    """Whether Hydra's primary config ``primary`` (a path without its suffix) composes others: a ``defaults:`` list
    may name a sibling. A file that cannot be read (the name of a class in the ConfigStore) may. Hydra takes the name
    with or without its suffix (``config_name="x.yaml"``)."""
    names = (primary,) if primary.endswith((".yaml", ".yml")) else (primary + ".yaml", primary + ".yml")
    for name in names:
        try:
            with open(name, encoding="utf-8", errors="replace") as handle:
                return re.search(r"^defaults[ \t]*:", handle.read(), re.MULTILINE) is not None
        except OSError:
            continue
    return True
