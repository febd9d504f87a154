"""Project facts read from files' text after the scan, for the decisions only some runs make.

``codemods.runner`` reads them again from the files once the index is merged, and only where a run has something
to decide (a clean tree pays nothing): whether anything may run ``Trainer.tune()`` (the fact ``tunes``, which lets
``auto_lr_find``/``auto_scale_batch_size`` go: rule ``removed_arguments``), and where a config key may be used
without the index seeing it (``unindexed:<key>``, which keeps its reads from moving: ``codemods.project.moved_reads``).
Standard library only.
"""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING

from codemods.project.command_syntax import TODO_MARK
from codemods.project.config_chains import chain, config_get, config_key, other_section_key
from codemods.project.keys import MOVABLE, UNSET_READS

if TYPE_CHECKING:
    from codemods.project.index import FileIndex

#: What may run ``Tuner._tune`` (and so read both tuning flags): ``trainer.tune(...)``, the tuner's own
#: ``lr_find``/``scale_batch_size`` (each runs ``Trainer.tune``, where the other flag still counts), the module
#: functions of those names (``lr_find(trainer, model)`` reads ``trainer.auto_lr_find``), LightningCLI.
_TUNING = re.compile(rb"\.\s*tune\s*\(|\btuner\b|\blr_find\b|\bscale_batch_size\b|LightningCLI")
_TUNE_FLAG_READ = re.compile(rb"\.\s*(auto_lr_find|auto_scale_batch_size)\b")


_MOVABLE_TEXT = {key: re.compile(rb"(?<!\w)trainer\W{1,3}" + key.encode() + rb"\b") for key in MOVABLE}
#: The key read under another section key that names a Trainer (``config["trainer_params"]["gpus"]``).
_KEYED_TEXT = {
    key: re.compile(rb"(?:\w+trainer\w*|\w*trainer\w+)[\"'\]\[.]{1,5}" + key.encode() + rb"\b", re.IGNORECASE)
    for key in MOVABLE
}
_YAML_KEY = {
    key: re.compile(rb"(?:^[ \t]*(?:-[ \t]+)?|[{,][ \t]*)" + key.encode() + rb"[ \t]*:", re.MULTILINE)
    for key in UNSET_READS
}


def configured(path: str, data: bytes, part: FileIndex) -> tuple[str, ...]:
    """Facts ``configured:<key>`` for the :data:`UNSET_READS` keys a YAML file sets outside the Trainer sections
    the index recorded (``lightning: trainer: gpus: 2``, a flow-style or packaged section): a config sets them
    after all, and its own TODO (the project guard's) covers their reads."""
    if not path.endswith((".yaml", ".yml")):
        return ()
    return tuple(f"configured:{key}" for key in UNSET_READS if _unrecorded(key, data, part))


def _unrecorded(key: str, data: bytes, part: FileIndex) -> bool:
    """Whether a YAML file sets ``key`` more often than the Trainer sections the index recorded hold it."""
    if key.encode() not in data:
        return False
    recorded = sum(1 for section in part.sections for name, _ in section.items if name == key)
    return len(_YAML_KEY[key].findall(data)) > recorded


def unindexed(path: str, data: bytes, part: FileIndex) -> tuple[str, ...]:
    """Facts ``unindexed:<key>`` for the :data:`MOVABLE` keys this file may use where :func:`index_text` saw no
    use: a YAML key outside a recorded Trainer section (a nested or flow-style ``trainer``, a group file that Hydra
    packages under ``trainer``), any mention in a file that is neither Python nor YAML (a notebook's
    ``cfg.trainer.gpus``, a doc's), and in Python the key as a string or as a keyword of anything but a Trainer
    (``OmegaConf.create({"trainer": {"gpus": 0}})``, ``Namespace(gpus=0)``: a config built in code)."""
    found: list[str] = []
    for key in MOVABLE:
        if key.encode() not in data:
            continue
        if path.endswith((".py", ".pyi")):
            if _python_mentions(data, key):
                found.append(f"unindexed:{key}")
        elif path.endswith((".yaml", ".yml")):
            if _unrecorded(key, data, part) and _under_trainer(key, data):
                found.append(f"unindexed:{key}")
        else:
            if _mentions(key, data) > _commands_of(key, part):
                # every mention is a command the index holds (a script's ``trainer.gpus=2``): those are weighed
                found.append(f"unindexed:{key}")
            if _KEYED_TEXT[key].search(data):
                found.append(f"unindexed-keyed:{key}")  # config["trainer_params"]["gpus"] in a notebook or a doc
    return tuple(found)


def _mentions(key: str, data: bytes) -> int:
    """The mentions of ``trainer.<key>`` in a text file that may read it: not in a commented-out line (``# ...``,
    ``// ...``), and not a store (``config.trainer.gpus = cuda`` in a notebook: a refused key stored fails loudly on
    the target, and a store reads nothing back)."""
    count = 0
    for match in _MOVABLE_TEXT[key].finditer(data):
        line = _line(data, match.start()).lstrip(b' \t"')
        if line.startswith((b"#", b"//")):
            continue
        if _STORE.match(data, match.end()):
            continue
        count += 1
    return count


#: What follows a store's target: ``= value`` (not ``==``).
_STORE = re.compile(rb"[ \t]*=(?!=)[ \t]*(?![\d\[\"'$<-])")


def _under_trainer(key: str, data: bytes) -> bool:
    """Whether some ``key:`` of a YAML file may sit in a Trainer section the index did not record: at the top level
    (a Hydra group file, packaged under ``trainer``), or under a mapping called ``trainer`` (nested or flow-style);
    not under another key (``tagger_trainer: {gpus: 1}``, which no ``cfg.trainer`` read sees)."""
    lines = data.splitlines()
    for number, line in enumerate(lines):
        stripped = line.lstrip(b" ")
        if not stripped.startswith(key.encode()) or not stripped[len(key) :].lstrip().startswith(b":"):
            if b"trainer" in line and b"{" in line:
                return True  # flow style: trainer: {gpus: 1}
            continue
        indent = len(line) - len(stripped)
        if indent == 0:
            return True
        for previous in reversed(lines[:number]):
            text = previous.lstrip(b" ")
            if not text or text.startswith(b"#") or len(previous) - len(text) >= indent:
                continue
            parent = text.split(b":", 1)[0].strip(b"- \t")
            if parent == b"trainer":
                return True
            break
    return False


def _commands_of(key: str, part: FileIndex) -> int:
    """How many uses of ``trainer.<key>`` the index holds as tokens of a command line in this file."""
    return sum(1 for use in part.uses if use.key == f"trainer.{key}" and use.kind == "override" and use.command)


#: A class named as a Trainer's typed config (``TrainerConfig``): where it mirrors the Trainer, it migrates with the
#: configs and its calls with it (``codemods.project.schema_plans``).
_SCHEMA_NAME = re.compile(r"Trainer\w*(?:Config|Conf|Cfg|Settings|Params|Args)$")


def _python_mentions(data: bytes, key: str) -> bool:
    """``key`` as a string constant, or as a keyword of a call that is not a Trainer's or its typed config's (the
    Python rules migrate those); a file that does not parse counts as a mention."""
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return True
    # cfg.trainer.get("gpus"): a use the index holds (codemods.project.scan_python), not a config built in code
    # and cfg["trainer"]["gpus"], config["trainer_params"]["gpus"]: indexed as reads of those sections' key
    named = {
        id(node.args[0]) if isinstance(node, ast.Call) else id(node.slice)
        for node in ast.walk(tree)
        if (isinstance(node, ast.Call) and config_get(node) == key)
        or (isinstance(node, ast.Subscript) and _keyed(node, key))
    }
    passing = _passing_functions(tree, key)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value == key and id(node) not in named:
            return True
        if isinstance(node, ast.Call) and any(keyword.arg == key for keyword in node.keywords):
            name = _callee(node)
            if not _flag_taker(name) and name not in passing:
                return True
    return False


def _keyed(node: ast.Subscript, key: str) -> bool:
    """Whether ``node`` reads ``key`` of a config section the way the project index records it (``cfg["trainer"]
    ["gpus"]``, ``config["trainer_params"]["gpus"]``)."""
    found = chain(node)
    return found is not None and (config_key(found) == f"trainer.{key}" or other_section_key(found, (key,)) is not None)


def _callee(node: ast.Call) -> str:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _flag_taker(name: str) -> bool:
    """A Trainer, or a class named as its typed config: the Python rules migrate the flags such a call takes."""
    return name.endswith("Trainer") or _SCHEMA_NAME.search(name) is not None


def _passing_functions(tree: ast.Module, key: str) -> frozenset[str]:
    """The functions of the file that take a parameter ``key`` and pass the flag on only to a Trainer, a typed config
    or another such function (``def create_training_config(self, gpus): return TrainerConf(gpus=gpus)``): a call of
    one gives the flag to where the Python rules migrate it, and builds no config of its own (what else the function
    computes from the value, ``cuda = gpus > 0``, is no config)."""
    candidates: dict[str, list[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            arguments = node.args
            if key in {arg.arg for arg in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)}:
                callees = [
                    _callee(call)
                    for call in ast.walk(node)
                    if isinstance(call, ast.Call) and any(keyword.arg == key for keyword in call.keywords)
                ]
                candidates.setdefault(node.name, []).extend(callees)
    found: set[str] = set()
    changed = True
    while changed:  # a function that passes the flag to one found so far passes it on too
        changed = False
        for name, callees in candidates.items():
            if name not in found and all(_flag_taker(callee) or callee in found for callee in callees):
                found.add(name)
                changed = True
    return frozenset(found)


def may_tune(data: bytes) -> bool:
    """Whether a file may run ``Trainer.tune()`` or read a tuning flag back: a ``.tune(`` call, the tuner or its
    ``lr_find``/``scale_batch_size``, LightningCLI (its ``tune`` subcommand in 1.5), or ``x.auto_lr_find``
    anywhere but as the value of the flag of that name
    (``auto_lr_find=cfg.trainer.auto_lr_find`` passes a config on; ``if trainer.auto_lr_find:`` reads it).
    Text, not syntax: a mention in a doc or a comment counts too, which only keeps a TODO."""
    for match in _TUNING.finditer(data):
        if TODO_MARK.encode() not in _line(data, match.start()):  # this tool's TODO names Tuner(...).lr_find
            return True
    if b"auto_lr_find" not in data and b"auto_scale_batch_size" not in data:
        return False
    for match in _TUNE_FLAG_READ.finditer(data):
        flag = match.group(1)
        line = data[data.rfind(b"\n", 0, match.start()) + 1 : match.start()]
        if not re.search(rb"\b" + flag + rb"\s*=\s*[\w.]*$", line) and TODO_MARK.encode() not in line:
            return True
    return False


def _line(data: bytes, offset: int) -> bytes:
    end = data.find(b"\n", offset)
    return data[data.rfind(b"\n", 0, offset) + 1 : len(data) if end < 0 else end]
