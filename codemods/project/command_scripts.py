"""What a command line runs, and so which configs its overrides reach (issue 26, item 1: "each command line is its
own").

``python examples/asr/speech_to_text.py trainer.gpus=2`` sets the Trainer of the config that script loads, not of
every config of the project: the index records the script a command runs (:func:`command_script`) and what else
the command picks (:func:`command_picks`: Hydra config groups, ``--config-name``), and resolves the script to the
project's own file (:func:`script_candidates`). A Hydra script's plain command reaches only the primary config
(``config_name=``), and the config groups the command chooses; one that picks another config with
``--config-name``/``--config-path`` reaches whatever the script's code may load (:func:`command_reaches`).
Standard library only.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence

from codemods.project.config_loads import PRIMARY, UNKNOWN

#: The last ``*.py`` word before a command's first override (``python examples/train.py``, ``!python x.py``,
#: ``torchrun --nproc_per_node 2 train.py``).
_SCRIPT = re.compile(r"""(?:^|(?<=[\s'"=]))([^\s'"=;|&<>()`]*\.py)(?=[\s'"]|$)""")
#: A top-level Hydra override (``model=conformer``, ``+db=mysql``): it may choose a config group.
_CHOICE = re.compile(r"""(?:^|(?<=[\s'"]))[+~]{0,2}([A-Za-z_][\w-]*)=""")
#: Hydra's options that pick another primary config or folder.
_PICKER = re.compile(r"""(?:^|(?<=[\s'"]))(?:--config-(?:name|path|dir)|-c[npd])(?=[\s=]|$)""")
#: What :func:`command_picks` records for a command that picks its primary config itself.
PICKS_CONFIG = "--config"
#: What it records for a command that picks one by name in the script's own folder (``--config-name x``, no
#: ``--config-path``): that name follows.
NAMED_CONFIG = "--config-name="
_NAMED = re.compile(r"""(?:^|(?<=[\s'"]))(?:--config-name|--config_name|-cn)(?:=|[ \t]+)["']?([\w./-]+)""")
_FOLDER = re.compile(r"""(?:^|(?<=[\s'"]))(?:--config-(?:path|dir)|-c[pd])(?=[\s=]|$)""")


def command_script(text: str) -> str:
    """The script the command ``text`` (its words before the first override) runs, as written; "" for none."""
    found = _SCRIPT.findall(text)
    return found[-1] if found else ""


def command_picks(text: str) -> tuple[str, ...]:
    """The config groups the command ``text`` may choose (its top-level ``name=`` overrides), and
    :data:`PICKS_CONFIG` where it picks its primary config with ``--config-name``/``--config-path``."""
    found = set(_CHOICE.findall(text))
    if _PICKER.search(text):
        named = _NAMED.findall(text)
        one = len(set(named)) == 1 and _FOLDER.search(text) is None
        found.add(NAMED_CONFIG + os.path.splitext(named[0])[0] if one else PICKS_CONFIG)
    return tuple(sorted(found))


def named_primary(loads: Sequence[str], picks: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``loads`` and ``picks`` of a command that picks its primary config by name (:data:`NAMED_CONFIG`): that file
    of the script's config folder is the primary config, where it is there; elsewhere the command picks "another
    config" (:data:`PICKS_CONFIG`), whatever the script's code may load."""
    name = next((pick[len(NAMED_CONFIG) :] for pick in picks if pick.startswith(NAMED_CONFIG)), None)
    if name is None:
        return tuple(loads), tuple(picks)
    rest = tuple(pick for pick in picks if not pick.startswith(NAMED_CONFIG))
    primaries = [load[len(PRIMARY) :] for load in loads if load.startswith(PRIMARY)]
    named = [os.path.join(os.path.dirname(primary), name) for primary in primaries]
    if not named or not all(os.path.isfile(f"{path}.yaml") for path in named):
        return tuple(loads), (*rest, PICKS_CONFIG)
    others = tuple(load for load in loads if not load.startswith(PRIMARY))
    return (*others, *(PRIMARY + path for path in named)), rest


def _common_tail(path: Sequence[str], parts: Sequence[str]) -> int:
    count = 0
    while count < min(len(path), len(parts)) and path[-1 - count] == parts[-1 - count]:
        count += 1
    return count


def script_candidates(script: str, near: str, root: str, scripts: Sequence[str]) -> tuple[str, ...]:
    """The files of ``scripts`` (the project's Python files) the command-line word ``script`` names, written in the
    file ``near``: the file it names from there or from the project's folder ``root``, else those whose path ends
    with the most of its parts (at least its name: a notebook's ``!python tacotron2.py`` is the project's
    ``examples/tts/tacotron2.py``). Empty: not a file of the project (the command may run anything)."""
    known = {os.path.normpath(path): path for path in scripts}
    plain = script.strip("\"'")
    if "$" not in plain and not plain.startswith(("~", "/")):
        for folder in (os.path.dirname(near), root or "."):
            exact = known.get(os.path.normpath(os.path.join(folder, plain)))
            if exact is not None:
                return (exact,)
    parts = [part for part in plain.replace("\\", "/").split("/") if part not in ("", ".")]
    cut = max((i + 1 for i, part in enumerate(parts) if part == ".." or part[:1] in "$~{"), default=0)
    scores = {path: _common_tail(os.path.normpath(path).split(os.sep), parts[cut:]) for path in scripts}
    best = max(scores.values(), default=0)
    return tuple(path for path, score in scores.items() if best and score == best)


def command_reaches(loads: Sequence[str], config: str, picks: Sequence[str], composed: bool) -> bool | None:
    """Whether a command that runs a script with these ``loads`` and picks ``picks`` (:func:`command_picks`)
    reaches the config file ``config``: a Hydra script's primary config, and the files under its folder's config
    groups that the command chooses. None where that is not narrower than the script's own reach
    (``codemods.project.config_loads.reaches``): no primary config, a load that cannot be told, a command that
    picks another config, a primary config that composes others (``composed``)."""
    primaries = [load[len(PRIMARY) :] for load in loads if load.startswith(PRIMARY)]
    if not primaries or UNKNOWN in loads or PICKS_CONFIG in picks or composed:
        return None
    target = os.path.splitext(os.path.abspath(config))[0]
    for primary in primaries:
        primary = os.path.abspath(primary)
        if target == primary:
            return True
        relative = os.path.relpath(target, os.path.dirname(primary)).split(os.sep)
        if len(relative) > 1 and relative[0] != ".." and relative[0] in picks:
            return True
    return False


#: Hydra's option that picks another primary config (``--config-name x``, ``-cn=x``).
_CONFIG_NAME = re.compile(rb"(?:--config-name|--config_name|(?<![\w-])-cn)(?:=|[ \t]+)[\"']?([\w./{}$-]+)")
#: What every match of :data:`_CONFIG_NAME` holds, led by a literal: the scan of each file of a tree (torch's 2,285
#: files: 40 ms) skips the full pattern, which has no literal prefix (1.8 s), where it cannot match.
_CONFIG_NAME_HINT = re.compile(rb"-c(?:onfig[-_]name|n)")


def config_name_facts(data: bytes) -> tuple[str, ...]:
    """Facts ``config-name:<name>@<script>`` for the primary configs a file's commands pick, in whatever folder, with
    the name of the script each command runs (``config-name:<name>@`` where the command names none: any script may
    be meant; script_config_names)."""
    if _CONFIG_NAME_HINT.search(data) is None:
        return ()
    found = []
    for match in _CONFIG_NAME.finditer(data):
        name = os.path.splitext(match.group(1).decode(errors="replace"))[0]
        script = os.path.basename(command_script(_command_before(data, match.start())).strip("\"'"))
        found.append(f"config-name:{name}@{script}")
    return tuple(sorted(set(found)))


def _command_before(data: bytes, offset: int) -> str:
    """The text of the command line around ``offset`` up to it, over the lines a trailing backslash continues."""
    start = data.rfind(b"\n", 0, offset) + 1
    while start > 0:
        previous = data.rfind(b"\n", 0, start - 1) + 1
        if not data[previous : start - 1].rstrip().endswith(b"\\"):
            break
        start = previous
    return data[start:offset].decode(errors="replace")


def script_config_names(facts: Iterable[str], path: str) -> frozenset[str]:
    """The config names the facts of :func:`config_name_facts` say the project's commands pick for the script
    ``path``: those of commands that run a script of that name, or whose script cannot be told. Each command line
    is its own: ``python bert.py --config-name=x`` does not make ``x`` a config of ``gpt.py`` in the same folder."""
    script = os.path.basename(path)
    names = set()
    for fact in facts:
        if fact.startswith("config-name:"):
            name, _, runs = fact[len("config-name:") :].rpartition("@")
            if runs in ("", script):
                names.add(name)
    return frozenset(names)


#: A command's choice of a nested config group (``+trainer/plugins=deepspeed``, ``trainer/logger=wandb``).
_GROUP_PICK = re.compile(rb"(?:^|[\s'\"])\+{0,2}((?:[\w.-]+/)+[\w.-]+)=[\w.-]")
#: The part of every :data:`_GROUP_PICK` match led by a literal (``/plugins=d``), for the same reason.
_GROUP_PICK_HINT = re.compile(rb"/[\w.-]+=[\w.-]")


def group_pick_facts(data: bytes) -> tuple[str, ...]:
    """Facts ``picks-group:<group>`` for the nested config groups a file's commands (or the comments that document
    them) choose from the command line: ``+trainer/plugins=deepspeed`` composes ``trainer/plugins/deepspeed.yaml``
    into whatever Trainer section the run has (``codemods.project.guard``)."""
    if _GROUP_PICK_HINT.search(data) is None:
        return ()
    return tuple(sorted({f"picks-group:{match.decode(errors='replace')}" for match in _GROUP_PICK.findall(data)}))
