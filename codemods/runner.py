"""Run the migration over many files: a process pool over files, a worker that never raises.

Each worker returns a frozen :class:`FileResult`; the parent only counts, sorts and prints. One file or
``jobs=1`` stays in-process (no pool start-up cost, easy debugging).
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from codemods.files import NOTEBOOK_SUFFIXES, PYTHON_SUFFIXES, DecodeError, decode, encode, write_atomic
from codemods.frontends.commands.files import is_command_file
from codemods.frontends.python import transform_python
from codemods.model import Finding, Options, Outcome
from codemods.project.facts import configured, may_tune, unindexed
from codemods.project.index import FileIndex, ProjectIndex, movable_read, removed_flag_read
from codemods.project.prefilter import (
    doc_text_triggered,
    doc_triggered,
    may_concern_a_rule,
    may_concern_a_rule_bytes,
    triggered,
    triggered_bytes,
    yaml_triggered,
)
from codemods.project.scan_file import index_text
from codemods.project.scan_text import is_text_file, text_facts
from codemods.project.trainer_classes import (
    TrainerClass,
    names_project_trainer,
    project_trainers,
    scan_classes,
    trainer_words,
)
from legacy_api.renames import STRATEGY_CLASSES

if TYPE_CHECKING:
    import multiprocessing.context

Mode = Literal["write", "diff", "check"]
Status = Literal["unchanged", "changed", "failed"]


@dataclass(frozen=True)
class FileResult:
    """What happened to one file. ``changed`` means changed on disk (write) or would change (diff/check)."""

    path: str
    status: Status
    findings: tuple[Finding, ...] = ()
    error: str | None = None
    diff: str = ""


def unified_diff(path: str, before: str, after: str) -> str:
    import difflib  # only --diff needs it

    # git's a/ b/ prefixes make sense for relative paths only (``patch -p1``); an absolute path stays as it is.
    old, new = (path, path) if os.path.isabs(path) else (f"a/{path}", f"b/{path}")
    lines = difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True), old, new)
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


def transform_text(text: str, path: str, options: Options) -> Outcome:
    """Dispatch on the file type; a file without a legacy token is returned before libcst or ruamel load."""
    if path.endswith((".yaml", ".yml")):
        if not yaml_triggered(text):
            return Outcome(text, changed=False, parsed=False)
        from codemods.frontends.yaml.pipeline import transform_yaml

        return transform_yaml(text, options, path)
    if path.endswith(NOTEBOOK_SUFFIXES):
        from codemods.frontends.notebooks.notebook import transform_notebook

        return transform_notebook(text, options) if triggered(text) else Outcome(text, changed=False, parsed=False)
    if is_command_file(path):
        from codemods.frontends.commands.front import transform_commands
        from codemods.frontends.docs.documents import is_doc

        commands = transform_commands(text, options, path)
        if not is_doc(path) or not (doc_text_triggered(commands.source) or _python_triggered(commands.source, options)):
            return commands
        # Then the code examples, on the commands' result: a doc's override edits stay within their lines, so
        # both keep the document's line numbers.
        from codemods.frontends.docs.documents import transform_doc

        examples = transform_doc(commands.source, options, path)
        findings = sorted({*commands.findings, *examples.findings}, key=lambda f: (f.line, f.column, f.rule, f.message))
        return Outcome(examples.source, examples.source != text, tuple(findings))
    if not _python_triggered(text, options):
        outcome = Outcome(text, changed=False, parsed=False)
    else:
        from codemods.frontends.docs.docstrings import migrate_docstrings

        # Without a token of any rule, transform_python's own token test (which loads every rule) says the same.
        tokens = None if may_concern_a_rule(text) else ()
        outcome = migrate_docstrings(transform_python(text, options, tokens), text, options)
    if "trainer." in outcome.source and outcome.error is None:
        from codemods.frontends.commands.front import python_strings

        return python_strings(outcome, options, path)
    return outcome


def _python_triggered(text: str, options: Options) -> bool:
    return triggered(text) or names_project_trainer(text, options.local_trainers, options.held_trainers)


def process(path: str, mode: Mode, options: Options) -> FileResult:
    """The worker: read, transform, and (in write mode) write one file. Never raises."""
    try:
        file = Path(path)
        data = file.read_bytes()
        try:
            decoded = decode(data, python=path.endswith(PYTHON_SUFFIXES))
        except DecodeError as exc:
            return FileResult(path, "failed", error=str(exc))
        outcome = transform_text(decoded.text, path, options)
        if outcome.error is not None:
            return FileResult(path, "failed", outcome.findings, outcome.error)
        if not outcome.changed:
            return FileResult(path, "unchanged", outcome.findings)
        if path.endswith(NOTEBOOK_SUFFIXES):
            from codemods.frontends.notebooks.notebook import diff as render_diff
        else:
            render_diff = unified_diff
        diff = render_diff(path, decoded.text, outcome.source) if mode == "diff" else ""
        if mode == "write":
            write_atomic(file, encode(decoded, outcome.source))
        return FileResult(path, "changed", outcome.findings, diff=diff)
    except Exception as exc:  # the worker's contract: report, never raise
        return FileResult(path, "failed", error=f"{type(exc).__name__}: {exc}")


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
    #: False for a kept Python file whose bytes hold no token of any rule (``prefilter.RULE_TOKENS``): a parallel
    #: run then need not load the Python pipeline (libcst and the rules) before its workers fork.
    rules: bool = True


#: A text file larger than this is data, not a script or a doc: not indexed.
_TEXT_LIMIT = 1 << 20


#: A literal searched with the regex engine, which finds it by its first byte (memchr): faster than ``in`` for a
#: short needle that ends in a common letter (``ydra`` half the time, on torch's sources).
_HYDRA = re.compile(rb"ydra").search
_OVERRIDE_TAIL = re.compile(rb"\.\w+[ \t]*=(?!=)")
_SCHEMA_FIELD = re.compile(rb"^[ \t]*(?:gpus|tpu_cores|num_processes)[ \t]*:", re.M)


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
    legacy_field = b"gpus" in data or b"tpu_cores" in data or b"num_processes" in data
    return legacy_field and b"Trainer" in data and _SCHEMA_FIELD.search(data) is not None


def _index(path: str, data: bytes, rainer: bool, add_arg: bool, text_file: bool) -> FileIndex:
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


def _has_commands(index: FileIndex, data: bytes) -> bool:
    """Whether a file holds a command line with Trainer overrides (``codemods.frontends.commands``) to plan."""
    return any(use.command for use in index.uses) or _ARGPARSE_FLAG.search(data) is not None


def scan(path: str) -> Scan:
    """Phase one, per file: the text prefilter, ``class X(Base)`` pairs of files that may define plugins, and
    the file's part of the project index. Text files (scripts, docs) are only indexed, never rewritten."""
    try:
        data = _read(path)
    except OSError:
        return Scan(path, not is_text_file(path))  # phase two reports the error
    # A clean file makes every test below, each a pass over all of it: the index and the prefilter share them.
    # "rainer": Trainer, trainer, TODO(migrate-trainer); "add_arg": add_argparse_args, add_argument.
    rainer, add_arg, text_file = b"rainer" in data, b"add_arg" in data, is_text_file(path)
    index = _index(path, data, rainer, add_arg, text_file)
    if text_file:
        from codemods.frontends.docs.documents import (
            is_doc,  # here, not at the top: a tree without docs or notebooks never needs them
        )

        work = is_command_file(path) and _has_commands(index, data)
        return Scan(path, work or (is_doc(path) and doc_triggered(data, rainer)), index=index)
    if path.endswith((".yaml", ".yml")):
        return Scan(path, yaml_triggered(data.decode("utf-8", errors="replace")), index=index)
    trainers = scan_classes(data, path) if rainer else ()
    if not triggered_bytes(data, rainer, add_arg):
        # Clean, unless it cannot be decoded: that is reported (phase two), never silently skipped.
        undecodable = (not data.isascii() and not _decodes(data)) or _has_commands(index, b"")
        words = trainer_words(data) if rainer else frozenset()  # no "rainer", no "...Trainer" word
        return Scan(path, undecodable, index=index, trainers=trainers, words=words)
    rules = not path.endswith(PYTHON_SUFFIXES) or may_concern_a_rule_bytes(data)
    if b"Plugin" not in data and b"Strategy" not in data:
        return Scan(path, True, index=index, trainers=trainers, rules=rules)
    text = data.decode("utf-8", errors="replace")
    if path.endswith(NOTEBOOK_SUFFIXES):
        from codemods.frontends.notebooks.notebook import python_code

        text = python_code(text)
    if not _CLASS.search(text):
        return Scan(path, True, index=index, trainers=trainers, rules=rules)
    return Scan(path, True, class_bases(text), index, trainers, rules=rules)


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


def _work(job: tuple[str, Mode, Options]) -> FileResult:
    return process(*job)


def run(
    paths: Sequence[str],
    mode: Mode,
    options: Options,
    jobs: int | None = None,
    progress: Callable[[FileResult], None] | None = None,
) -> list[FileResult]:
    """Process ``paths`` (in parallel when worth it) and return the results sorted by path.

    Two phases: a scan of every file (the prefilter, the project's own strategy subclasses and the project
    index of config-key uses), then the migration of the files the prefilter kept, each with the whole index.
    A clean file is read once; text files (scripts, docs) are only indexed. One file or ``jobs=1`` stays
    in-process.
    """
    if not paths:
        return []
    jobs = jobs or os.cpu_count() or 1
    if jobs == 1 or len(paths) == 1:
        scans = [scan(path) for path in paths]
    else:
        with _context().Pool(min(jobs, len(paths))) as pool:
            scans = list(pool.imap_unordered(scan, paths, chunksize=max(1, min(256, len(paths) // (jobs * 8)))))
    scans.sort(key=lambda item: item.path)  # every later decision iterates in path order, whatever the pool did
    # One abspath per folder rather than per file (for a file's path, dirname and abspath commute).
    root = os.path.commonpath([os.path.abspath(folder) for folder in {os.path.dirname(item.path) for item in scans}])
    project = ProjectIndex.merge((item.index for item in scans), os.path.relpath(root) if root else "")
    project = _late_facts(scans, project)
    options = replace(options, local_strategies=options.local_strategies | local_strategies(scans), project=project)
    trainers = project_trainers((cls for item in scans for cls in item.trainers), os.path.relpath(root) if root else "")
    options = replace(options, local_trainers=trainers.passing, held_trainers=trainers.held)
    options = _moved_reads(project, options)
    # A file that calls a project subclass of Trainer defined elsewhere needs no Lightning import of its own.
    called = trainers.passing | {name for name, _, _ in trainers.held}
    scans = [replace(item, triggered=True) if item.words & called else item for item in scans]
    # And a file whose only legacy is a config read that moves with its key (rule config_reads).
    readers = {
        use.path
        for use in project.uses
        if (movable_read(use) and use.key.partition(".")[2] in options.moved_reads)
        or use.key.partition(".")[2] in options.unset_reads
    }
    scans = [replace(item, triggered=True) if item.path in readers else item for item in scans]
    indexed_only = {item.path for item in scans if is_text_file(item.path)}
    results = [
        FileResult(item.path, "unchanged") for item in scans if not item.triggered and item.path not in indexed_only
    ]
    if progress:
        for result in results:
            progress(result)
    kept = [item for item in scans if item.triggered]
    work = [(item.path, mode, options) for item in kept]
    if jobs == 1 or len(work) <= 1:
        for job in work:
            results.append(_work(job))
            if progress:
                progress(results[-1])
    else:
        if any(item.rules for item in kept):
            import codemods.frontends.python.pipeline  # noqa: F401 - load libcst and the rules once, before the workers fork

        with _context().Pool(min(jobs, len(work))) as pool:
            for result in pool.imap_unordered(_work, work, chunksize=max(1, min(16, len(work) // (jobs * 4)))):
                results.append(result)
                if progress:
                    progress(result)
    return sorted(_blocking_uses(results, project, options), key=lambda result: result.path)


def _context() -> multiprocessing.context.BaseContext:
    import multiprocessing  # only a parallel run needs it (and it imports socket, pickle, ...)

    return multiprocessing.get_context("spawn" if os.name == "nt" else "fork")


def _late_facts(scans: Sequence[Scan], project: ProjectIndex) -> ProjectIndex:
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


def _moved_reads(project: ProjectIndex, options: Options) -> Options:
    """The options with the keys whose reads move with them, and those whose reads nothing sets
    (``codemods.project.moved_reads``), decided once here."""
    if not any(removed_flag_read(use) for use in project.uses):
        return options
    from codemods.project.moved_reads import (  # it plans sections: loaded only where a read could move
        moved_keys,
        unset_keys,
    )

    return replace(options, moved_reads=moved_keys(project, options), unset_reads=unset_keys(project, options))


def _blocking_uses(results: list[FileResult], project: ProjectIndex, options: Options) -> list[FileResult]:
    """A config section left alone because a key of it is used elsewhere: a finding (kind "report") at each such use.

    And an override the run leaves as it is, of an argument the target's Trainer refuses, where no config holds the
    key back for it (``codemods.project.guard``: it would fail there anyway): a TODO at the use, since nothing else says
    so.
    """
    if not project.uses:
        return results  # nothing can be held or refused; and the imports below load every rule (and libcst)
    from codemods.frontends.commands.decide import migrates
    from codemods.project.decisions import RULE, blocked_keys
    from legacy_api.removed_arguments import refused_at

    held: dict[tuple[str, int, str], set[str]] = {}
    for result in results:
        for finding in result.findings:
            if finding.rule != RULE or finding.kind != "todo":
                continue
            for key in blocked_keys(finding.message):
                for use in project.uses_of(key, outside=result.path):
                    held.setdefault((use.path, use.line, key), set()).add(project.where(result.path))
    # One finding per use, naming the configs it holds (a README line may hold every experiment config).
    extra: dict[str, list[Finding]] = {}
    for (path, line, key), configs in sorted(held.items()):
        names = sorted(configs)
        where = " and ".join(names) if len(names) <= 2 else f"{names[0]}, {names[1]} and {len(names) - 2} more"
        verb = "keeps" if len(names) == 1 else "keep"
        message = f"{key} is used here, so {where} {verb} the legacy key: migrate both"
        # A pointer, not a second TODO: the config's own TODO names this use and keeps --check failing.
        extra.setdefault(path, []).append(Finding(RULE, message, line, 1, "report"))
    noted = {(result.path, finding.line) for result in results for finding in result.findings}
    held_keys = {key for _, _, key in held}
    for use in project.uses:
        name = use.key.partition(".")[2]
        if (
            use.kind != "override"
            or not use.key.startswith("trainer.")
            or use.key in held_keys
            or (use.path, use.line) in noted
            or not refused_at(name, options.target_tuple)
            or migrates(use, project, options)
        ):
            continue
        message = f"{use.key} here is refused by Lightning {options.target}'s Trainer: rewrite this override by hand"
        extra.setdefault(use.path, []).append(Finding(RULE, message, use.line, 1, "todo"))
    if not extra:
        return results
    out: list[FileResult] = []
    for result in results:
        found = extra.pop(result.path, None)
        if found:
            findings = tuple(sorted({*result.findings, *found}, key=lambda f: (f.line, f.column, f.rule, f.message)))
            result = replace(result, findings=findings)
        out.append(result)
    for path, found in extra.items():
        out.append(FileResult(path, "unchanged", tuple(sorted(set(found), key=lambda f: (f.line, f.rule, f.message)))))
    return out
