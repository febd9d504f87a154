"""How Python spells a config key: ``cfg.trainer.gpus``, ``cfg["trainer"]["gpus"]``, ``cfg.trainer.get("gpus")``.

The project index (``codemods.project.scan_python``), its text facts (``codemods.project.facts``) and the Python
rules that move reads and stores (``config_reads``, ``config_stores``) must take for a config key exactly the same
expressions. Standard library only.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Collection, Sequence

#: Attribute roots that are Trainer objects (``self.trainer.gpus`` is a Trainer property, not a config key).
TRAINER_OWNERS = frozenset({"self", "pl_module", "module", "model", "lightning_module", "cls"})
#: The mapping methods whose first argument names a key of the mapping they are called on.
KEY_METHODS = ("get", "pop", "setdefault")


def chain(node: ast.expr) -> list[str] | None:
    """``cfg.trainer["gpus"].x`` -> ["cfg", "trainer", "gpus", "x"]; None for anything else."""
    parts: list[str] = []
    while True:
        if isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            if not isinstance(node.slice.value, str):
                return None
            parts.append(node.slice.value)
            node = node.value
        elif isinstance(node, ast.Name):
            parts.append(node.id)
            return list(reversed(parts))
        else:
            return None


def attribute_read(node: ast.expr, name: str) -> bool:
    """Whether the outermost chain ``node`` holds ``<...>.trainer.<name>`` as attributes, in a load."""
    while isinstance(node, ast.Attribute | ast.Subscript):
        if isinstance(node, ast.Attribute) and node.attr == name and isinstance(node.value, ast.Attribute):
            return node.value.attr == "trainer" and isinstance(node.ctx, ast.Load)
        node = node.value
    return False


def config_key(chain: Sequence[str]) -> str | None:
    """``cfg.trainer.gpus`` -> ``trainer.gpus`` when the ``trainer`` is a config node, not a Trainer object."""
    for index in range(1, len(chain) - 1):
        if chain[index] != "trainer":
            continue
        owner = chain[index - 1]
        if owner in TRAINER_OWNERS:
            return None  # self.trainer.gpus, self.lightning_module.trainer.gpus: the Trainer's property
        return f"trainer.{chain[index + 1]}"
    return None


def other_section_key(chain: Sequence[str], flags: Collection[str]) -> str | None:
    """``config["trainer_params"]["gpus"]`` -> ``trainer_params.gpus``: one of ``flags`` read under a key other than
    ``trainer``, which holds that key only where the project splats such a section into a Trainer
    (``ProjectIndex.uses_of``)."""
    if len(chain) < 3 or chain[-1] not in flags:
        return None
    if chain[0] in TRAINER_OWNERS and (trainer_object(chain) or len(chain) < 4):
        return None  # self.trainer.x is the Trainer's; self.config.trainer.params.x a config the object holds
    return f"{chain[-2]}.{chain[-1]}"


def trainer_object(chain: Sequence[str]) -> bool:
    """``self.trainer``, ``self.lightning_module.trainer``: a Trainer (after objects that hold one), no config."""
    rest = list(chain)
    while rest and rest[0] in TRAINER_OWNERS:
        rest.pop(0)
    return bool(rest) and rest[0] == "trainer"


def keyed_load(node: ast.expr) -> bool:
    """Whether ``node`` loads its last key as an attribute or a string subscript (``cfg.x.gpus``,
    ``cfg["x"]["gpus"]``): renaming that one key moves the read, which finds nothing where the key is missing, as
    before. A store, a deletion or a ``get`` is no such read."""
    if isinstance(node, ast.Attribute):
        return isinstance(node.ctx, ast.Load)
    return (
        isinstance(node, ast.Subscript)
        and isinstance(node.ctx, ast.Load)
        and isinstance(node.slice, ast.Constant)
        and isinstance(node.slice.value, str)
    )


def config_get(node: ast.Call) -> str | None:
    """``cfg.trainer.get("gpus")`` (also ``pop``, ``setdefault``) -> ``gpus``: a config node's key named as text;
    None for anything else (``self.trainer.get(...)`` is no config)."""
    func = node.func
    if not (isinstance(func, ast.Attribute) and func.attr in KEY_METHODS and node.args):
        return None
    found = chain(func.value)
    first = node.args[0]
    if found is None or found[-1] != "trainer" or (len(found) == 2 and found[0] in TRAINER_OWNERS):
        return None
    return first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None


def computed_key(node: ast.expr) -> str | None:
    """``cfg.get(f"{name}_trainer")``, ``cfg[f"{name}_trainer"]`` -> ``{}_trainer``: a top-level key of a config that
    the code spells at run time, as a pattern in which ``{}`` stands for any text (``ProjectIndex.merge`` matches it
    against the keys the project's configs hold); None for anything else, or for an f-string whose own text does not
    name a trainer (``f"{a}_{b}"`` would spell every key of the project that holds a ``_``)."""
    if isinstance(node, ast.Call):
        func = node.func
        if not (isinstance(func, ast.Attribute) and func.attr in KEY_METHODS and node.args):
            return None
        receiver, key = func.value, node.args[0]
    elif isinstance(node, ast.Subscript):
        receiver, key = node.value, node.slice
    else:
        return None
    if not isinstance(receiver, ast.Name) or not isinstance(key, ast.JoinedStr):
        return None
    parts: list[str] = []
    for value in key.values:
        if isinstance(value, ast.Constant) and isinstance(value.value, str) and not re.search(r"[{}]", value.value):
            parts.append(value.value)
        elif isinstance(value, ast.FormattedValue):
            parts.append("{}")
        else:
            return None
    pattern = "".join(parts)
    return pattern if "trainer" in pattern.replace("{}", " ").lower() else None


def spelled_keys(section: str, keys: Sequence[str]) -> list[str]:
    """``section`` itself, or for a pattern of :func:`computed_key` (``{}_trainer``) each of ``keys`` (the top-level
    keys of the project's configs) it spells (``tagger_trainer``, ``decoder_trainer``): each may reach the Trainer."""
    if "{}" not in section:
        return [section]
    pattern = re.compile(".+".join(re.escape(part) for part in section.split("{}")))
    return [key for key in keys if pattern.fullmatch(key)]


def assignments(tree: ast.Module) -> dict[str, list[ast.expr]]:
    """name -> the values of every ``name = value`` in the file, whatever its scope (``self.name`` for
    ``self.name = value``): what a config name read in a chain (``params = self.trainer_config``) may hold."""
    found: dict[str, list[ast.expr]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                found.setdefault(target.id, []).append(node.value)
            elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
                found.setdefault(f"self.{target.attr}", []).append(node.value)
    return found
