"""Phase one, per file: read it once, prefilter it, find its classes and its share of the project index.

``codemods.runner`` maps :func:`scan` over every file given (in a pool), merges the indexes, and asks
:func:`late_facts` for the facts only a run with something to decide needs.
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from codemods.files import DecodeError, decode
from codemods.kinds import NOTEBOOK_SUFFIXES, PYTHON_SUFFIXES, is_command_file, is_doc, is_text_file
from codemods.project.command_scripts import config_name_facts, group_pick_facts
from codemods.project.datamodule_dims import DimsClasses, scan_dims
from codemods.project.facts import configured, may_tune, unindexed
from codemods.project.hook_classes import NO_CLASSES, RawClasses, scan_hook_bases
from codemods.project.index import FileIndex, ProjectIndex
from codemods.project.logger_lists import builds_logger_list
from codemods.project.prefilter import doc_triggered, may_concern_a_rule_bytes, triggered_bytes, yaml_triggered
from codemods.project.scan_file import index_text
from codemods.project.scan_text import text_facts
from codemods.project.scan_yaml import composes_facts, package_facts
from codemods.project.trainer_classes import TrainerClass, scan_classes, trainer_words
from codemods.project.use_kinds import movable_read, removed_flag_read
from legacy_api.renames import STRATEGY_CLASSES

_CLASS = re.compile(r"^\s*class\s+(\w+)\s*\(([^)]*)\)", re.MULTILINE)


@dataclass(frozen=True)
class Scan:
    """What the first phase learns about one file: whether it can need work, the classes it defines and what it
    contributes to the project index (``codemods.project.index``)."""

    path: str
    triggered: bool
    bases: tuple[tuple[str, tuple[str, ...]], ...] = ()
    index: FileIndex = field(default_factory=FileIndex)
    #: Its classes with bases, for the project's Trainer subclasses; the ``...Trainer`` names it says.
    trainers: tuple[TrainerClass, ...] = ()
    words: frozenset[str] = frozenset()
    #: Its classes with the last names of their bases, for the project's hook classes (``hook_classes``).
    hooks: RawClasses = NO_CLASSES
    #: What its classes say of ``dims`` (``codemods.project.datamodule_dims``).
    dims: DimsClasses = ()
    #: Whether it builds a list of loggers for a Trainer (``codemods.project.logger_lists``).
    loggers: bool = False
    #: Why phase one failed on it (a defect of this tool): the file is reported as failed and left as it is.
    error: str | None = None
    #: False for a kept Python file whose bytes hold no token of any rule (``prefilter.RULE_TOKENS``): a parallel
    #: run then need not load the Python pipeline (libcst and the rules) before its workers fork.
    rules: bool = True


#: A text file larger than this is data, not a script or a doc: not indexed.
_TEXT_LIMIT = 1 << 20


#: A literal searched with the regex engine, which finds it by its first byte (memchr): faster than ``in`` for a
#: short needle that ends in a common letter (``ydra`` half the time, on torch's sources).
_HYDRA = re.compile(rb"ydra").search


_OVERRIDE_TAIL = re.compile(rb"\.\w+[ \t]*=(?!=)")


#: ``Trainer(`` where a call may start (a splat of a mapping into a Trainer class follows within :data:`_CALL_SPAN`).
_TRAINER_CALL = re.compile(rb"Trainer[ \t]*\(")
#: How far into a Trainer call its ``**`` is looked for: the arguments of a long call (callbacks built inline).
_CALL_SPAN = 4000


def _splats_into(data: bytes) -> bool:
    """Whether some ``Trainer(...)`` call passes ``**x`` among its own arguments (not inside a nested call's), as
    ``Trainer(logger=..., callbacks=[ModelCheckpoint(...)], **config["trainer_params"])`` does."""
    for found in _TRAINER_CALL.finditer(data):
        depth = 1
        index = found.end()
        end = min(len(data), index + _CALL_SPAN)
        while index < end and depth:
            byte = data[index]
            if byte in b"([{":
                depth += 1
            elif byte in b")]}":
                depth -= 1
            elif depth == 1 and data.startswith(b"**", index):
                return True
            index += 1
    return False


#: A schema's device field, legacy or (once the class migrated: a second run must see it as the first did) new.
_SCHEMA_FIELD = re.compile(rb"^[ \t]*(?:gpus|tpu_cores|num_processes|accelerator|devices)[ \t]*:", re.M)


def _may_use(data: bytes) -> bool:
    """Whether ``data`` can hold a use of a Trainer section key (``codemods.project.index`` decides on the parse tree).

    Looks only around each ``trainer``: ``x.trainer.k``/``x.trainer[``/``**x.trainer)``, ``["trainer"]``, a
    ``"trainer.k"`` string or a ``trainer.k=`` override, ``${trainer.k}``, ``trainer_defaults``; and, in a file
    that names a Trainer, a schema field such as ``gpus: int``. A regex over the whole file costs several
    times more on the large clean files a project vendors.
    """
    index = data.find(b"trainer")
    while index >= 0:
        before = data[index - 1 : index]
        after = data[index + 7 : index + 40]
        if after.startswith(b"_defaults"):
            return True
        if before == b"." and after.lstrip(b" ")[:1] in (b".", b"[", b")", b","):
            return True  # cfg.trainer.gpus, cfg.trainer["gpus"], **cfg.trainer)
        if before in (b'"', b"'") and (
            after[:1] == b"." or (after[:1] == before and data[index - 2 : index - 1] == b"[")
        ):
            return True  # "trainer.gpus", cfg["trainer"] (not any "trainer" string: torch names its workers so)
        if (before in (b"{", b"-", b"+") and after[:1] == b".") or (
            before in (b" ", b"\t", b"\n", b"") and _OVERRIDE_TAIL.match(after)
        ):
            return True  # ${trainer.gpus}, --trainer.gpus, +trainer.gpus=, trainer.gpus=2
        index = data.find(b"trainer", index + 7)
    legacy_field = any(word in data for word in (b"gpus", b"tpu_cores", b"num_processes", b"accelerator", b"devices"))
    if b"Trainer" in data and b"**" in data and _splats_into(data):
        return True  # Trainer(**config["trainer_params"]): a section under another key (scan_python's splats)
    return legacy_field and b"Trainer" in data and _SCHEMA_FIELD.search(data) is not None


def _index(path: str, data: bytes, rainer: bool, add_arg: bool, text_file: bool) -> FileIndex:
    index = _file_index(path, data, rainer, add_arg, text_file)
    if path.endswith((".yaml", ".yml")) and (b"defaults" in data or b"@package" in data):
        # what its defaults list composes: a Trainer section of those files is not the whole of what the Trainer gets;
        # and where Hydra puts the file's content (a group file's trainer: is the group's own)
        text = data.decode("utf-8", errors="replace")
        found = (*composes_facts(text, path), *package_facts(text, path))
        if found:
            index = replace(index, facts=tuple(sorted({*index.facts, *found})))
    return index


def _file_index(path: str, data: bytes, rainer: bool, add_arg: bool, text_file: bool) -> FileIndex:
    # a strategy plugin that Hydra may compose in (``plugins/deepspeed.yaml``)
    plugin_config = path.endswith((".yaml", ".yml")) and (b"Plugin" in data or b"Strategy" in data)
    if len(data) > _TEXT_LIMIT and text_file:
        return FileIndex()
    # a Hydra group file's keys are a Trainer section's without the word "trainer" (``conf/trainer/gpu.yaml``)
    group_file = path.endswith((".yaml", ".yml")) and "/trainer/" in f"/{path.replace(os.sep, '/')}"
    if not (rainer or plugin_config or group_file) or (path.endswith(PYTHON_SUFFIXES) and not _may_use(data)):
        # still read what it says about the project's tools (a hydra-core pin, add_argparse_args, from_argparse_args)
        stated = add_arg or b"from_argparse_args" in data or _HYDRA(data) is not None
        return FileIndex(facts=text_facts(data.decode("utf-8", errors="replace"), path)) if stated else FileIndex()
    return index_text(data.decode("utf-8", errors="replace"), path)


_ARGPARSE_FLAG = re.compile(rb"--(?:gpus|tpu_cores|ipus|num_processes|distributed_backend|amp_backend|amp_level)\b")


#: ``decoder_trainer.gpus=2``: an override of a section under another key, which may be splatted into a Trainer
#: (``codemods.frontends.commands.front``, once the project index says so).
_KEYED_OVERRIDE = re.compile(rb"(?<![\w.])(?!trainer\.)\w*trainer\w*\.\w+=")


def _has_commands(index: FileIndex, data: bytes) -> bool:
    """Whether a file holds a command line with Trainer overrides (``codemods.frontends.commands``) to plan."""
    if any(use.command for use in index.uses) or _ARGPARSE_FLAG.search(data) is not None:
        return True
    return b"trainer" in data and _KEYED_OVERRIDE.search(data) is not None


def scan(path: str) -> Scan:
    """Phase one, per file: the text prefilter, ``class X(Base)`` pairs of files that may define plugins, and
    the file's part of the project index. Text files (scripts, docs) are only indexed, never rewritten."""
    try:
        data = _read(path)
    except OSError:
        return Scan(path, not is_text_file(path))  # phase two reports the error
    # A clean file makes every test below, each a pass over all of it: the index and the prefilter share them.
    # "rainer": Trainer, trainer, TODO(migrate-trainer).
    rainer = b"rainer" in data
    try:
        found = _scan(path, data, rainer)
        # A list of loggers for a Trainer is built where the Trainer (or its config section) is named.
        return replace(found, loggers=True) if rainer and builds_logger_list(data, path) else found
    except Exception as exc:  # the worker's contract, as in phase two: report the file, never stop the run
        return Scan(path, False, error=f"internal error while scanning: {type(exc).__name__}: {exc}")


def _scan(path: str, data: bytes, rainer: bool) -> Scan:
    # "add_arg": add_argparse_args, add_argument.
    add_arg, text_file = b"add_arg" in data, is_text_file(path)
    index = _index(path, data, rainer, add_arg, text_file)
    chosen = (*config_name_facts(data), *group_pick_facts(data))
    if chosen:
        index = replace(index, facts=tuple(sorted({*index.facts, *chosen})))
    if text_file:
        work = is_command_file(path) and _has_commands(index, data)
        return Scan(path, work or (is_doc(path) and doc_triggered(data, rainer)), index=index)
    if path.endswith((".yaml", ".yml")):
        return Scan(path, yaml_triggered(data.decode("utf-8", errors="replace")), index=index)
    trainers = scan_classes(data, path) if rainer else ()
    hooks = scan_hook_bases(data) if path.endswith(".py") else NO_CLASSES
    dims = scan_dims(data) if hooks[1] else ()
    if not triggered_bytes(data, rainer, add_arg):
        # Clean, unless it cannot be decoded: that is reported (phase two), never silently skipped.
        undecodable = (not data.isascii() and not _decodes(data)) or _has_commands(index, b"")
        words = trainer_words(data) if rainer else frozenset()  # no "rainer", no "...Trainer" word
        return Scan(path, undecodable, index=index, trainers=trainers, words=words, hooks=hooks, dims=dims)
    rules = not path.endswith(PYTHON_SUFFIXES) or may_concern_a_rule_bytes(data)
    if b"Plugin" not in data and b"Strategy" not in data:
        return Scan(path, True, index=index, trainers=trainers, rules=rules, hooks=hooks, dims=dims)
    text = data.decode("utf-8", errors="replace")
    if path.endswith(NOTEBOOK_SUFFIXES):
        from codemods.frontends.notebooks.notebook import python_code

        text = python_code(text)
    if not _CLASS.search(text):
        return Scan(path, True, index=index, trainers=trainers, rules=rules, hooks=hooks, dims=dims)
    return Scan(path, True, class_bases(text), index, trainers, rules=rules, hooks=hooks, dims=dims)


def _read(path: str) -> bytes:
    """A file's bytes, read with ``os.read`` (no buffered file object: most files are read once, only here)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    try:
        data = os.read(fd, os.fstat(fd).st_size + 1)
        more = os.read(fd, 1 << 16)
        if not more:
            return data
        parts = [data, more]  # it grew since fstat: read to the end
        while parts[-1]:
            parts.append(os.read(fd, 1 << 16))
        return b"".join(parts)
    finally:
        os.close(fd)


def class_bases(text: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``class X(a.B, C)`` -> ("X", ("B", "C")) for every class the code defines (parsed: a class written in a
    docstring or a string is no class); nothing when the file does not parse (phase two reports it)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            names = []
            for base in node.bases:
                while isinstance(base, ast.Call | ast.Subscript):
                    base = base.func if isinstance(base, ast.Call) else base.value
                if isinstance(base, ast.Attribute):
                    names.append(base.attr)
                elif isinstance(base, ast.Name):
                    names.append(base.id)
            found.append((node.name, tuple(names)))
    return tuple(found)


def _decodes(data: bytes) -> bool:
    try:
        decode(data, python=True)
    except DecodeError:
        return False
    return True


def local_strategies(scans: Sequence[Scan]) -> frozenset[str]:
    """Project classes deriving (directly or not) from a strategy plugin: ``class MyDDPPlugin(DDPPlugin)``.

    A text scan, so a subclass defined in one file is recognised in ``plugins=[MyDDPPlugin()]`` in another.
    """
    bases: dict[str, set[str]] = {}
    for item in scans:
        for name, parents in item.bases:
            bases.setdefault(name, set()).update(parents)
    found: set[str] = set()
    known = set(STRATEGY_CLASSES)
    while True:
        new = {name for name, parents in bases.items() if name not in found and parents & (known | found)}
        if not new:
            return frozenset(found - known)
        found |= new


def scan_local_strategies(paths: Sequence[str]) -> frozenset[str]:
    """:func:`local_strategies` of ``paths``, scanned in this process."""
    return local_strategies([scan(path) for path in paths if path.endswith(PYTHON_SUFFIXES)])


def late_facts(scans: Sequence[Scan], project: ProjectIndex) -> ProjectIndex:
    """The project facts only a run with something to decide needs, read again from the files then (the OS has
    them cached) so that a clean tree pays nothing for them: ``tunes`` (``codemods.project.facts.may_tune``) where a
    file to rewrite passes a tuning flag, ``unindexed:<key>`` (``codemods.project.facts.unindexed``) where a read
    could move with its key, ``configured:<key>`` (``codemods.project.facts.configured``) where a removed flag is
    read. One pass over the files serves them all."""
    # Docs count: their code blocks go through the Python rules, so a Trainer(auto_lr_find=True) there is dropped
    # unless the project (that doc's own trainer.tune(model) included) is known never to tune.
    flagged = [item.path for item in scans if item.triggered]
    tuning = any(b"auto_lr_find" in data or b"auto_scale_batch_size" in data for data in map(_data, flagged))
    moving = any(movable_read(use) for use in project.uses)
    unset = any(removed_flag_read(use) for use in project.uses)
    if not tuning and not moving and not unset:
        return project
    facts = set(project.facts)
    for item in scans:
        data = _data(item.path)
        if tuning and "tunes" not in facts and may_tune(data):
            facts.add("tunes")
            if not moving and not unset:
                break
        if moving:
            facts.update(unindexed(item.path, data, item.index))
        if unset:
            facts.update(configured(item.path, data, item.index))
    return project if facts == set(project.facts) else replace(project, facts=frozenset(facts))


def _data(path: str) -> bytes:
    try:
        return _read(path)
    except OSError:
        return b""  # phase two reports it
