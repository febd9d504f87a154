"""Run the migration over many files: a process pool over files, a worker that never raises.

Each worker returns a frozen :class:`FileResult`; the parent only counts, sorts and prints. One file or
``jobs=1`` stays in-process (no pool start-up cost, easy debugging).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from codemods.files import DecodeError, decode, encode, read_regular, select_regular, write_atomic
from codemods.frontends.python import python_triggered, transform_python
from codemods.kinds import NOTEBOOK_SUFFIXES, PYTHON_SUFFIXES, is_command_file, is_doc, is_test_path, is_text_file
from codemods.model import Finding, Options, Outcome
from codemods.project.datamodule_dims import dims_classes
from codemods.project.hook_classes import project_hook_classes, project_hook_words, project_subclasses, subclasses_one
from codemods.project.index import FileIndex, ProjectIndex
from codemods.project.moved_stores import moved_store_keys
from codemods.project.prefilter import doc_text_triggered, may_concern_a_rule, triggered, yaml_triggered
from codemods.project.roots import project_roots
from codemods.project.scan import Scan, late_facts, local_strategies, scan
from codemods.project.trainer_classes import project_trainers
from codemods.project.use_kinds import movable_read, removed_flag_read
from legacy_api.removed_arguments import refused_at

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


def _settled(first: Outcome, again: Callable[[str], Outcome]) -> Outcome:
    """A YAML rewrite taken once more over its own output, where that changes it: what the next run would do.

    A section the project guard holds in part (TALI's ``strategy: dp`` kept for a command that sets it, beside a
    ``gpus: 0`` that goes) reads differently once the other keys are gone (no ``gpus: 0``, no 1.5 fallback from
    DataParallel to one CPU): the next run would add the TODO that reading calls for. The findings are the first
    pass's and the second's TODOs it did not give."""
    if not first.changed or first.error is not None:
        return first
    second = again(first.source)
    if second.error is not None or not second.changed:
        return first
    said = {(finding.rule, finding.message) for finding in first.findings}
    more = tuple(f for f in second.findings if f.kind == "todo" and (f.rule, f.message) not in said)
    return Outcome(second.source, True, first.findings + more)


def transform_text(text: str, path: str, options: Options) -> Outcome:
    """Dispatch on the file type; a file without a legacy token is returned before libcst or ruamel load."""
    if path.endswith((".yaml", ".yml")):
        if not yaml_triggered(text):
            return Outcome(text, changed=False, parsed=False)
        from codemods.frontends.yaml.pipeline import transform_yaml

        return _settled(transform_yaml(text, options, path), lambda out: transform_yaml(out, options, path))
    if path.endswith(NOTEBOOK_SUFFIXES):
        from codemods.frontends.notebooks.notebook import transform_notebook

        if not triggered(text) and "trainer." not in text:
            return Outcome(text, changed=False, parsed=False)
        return transform_notebook(text, options, path)
    if is_command_file(path):
        from codemods.frontends.commands.front import transform_commands

        commands = transform_commands(text, options, path)
        if not is_doc(path) or not (doc_text_triggered(commands.source) or python_triggered(commands.source, options)):
            return commands
        # Then the code examples, on the commands' result: a doc's override edits stay within their lines, so
        # both keep the document's line numbers.
        from codemods.frontends.docs.documents import transform_doc

        examples = transform_doc(commands.source, options, path)
        findings = sorted({*commands.findings, *examples.findings}, key=lambda f: (f.line, f.column, f.rule, f.message))
        return Outcome(examples.source, examples.source != text, tuple(findings))
    root = getattr(options.project, "root", "") or "."
    if is_test_path(os.path.relpath(path, root)):  # relative: a project checked out under ~/test/ is not a test
        options = replace(options, test_suite=True)
    if options.read_moves:  # the reads of this file that move with their key (codemods.project.moved_reads)
        mine = [(key, mode) for at, key, mode in options.read_moves if at == path]
        moved = frozenset(key for key, _ in mine)
        expressions = frozenset(key for key, mode in mine if mode == "expression")
        options = replace(options, moved_reads=moved, read_expressions=expressions)
    if isinstance(options.project, ProjectIndex) and options.project.schemas and options.project.schema_free(path):
        options = replace(options, schema_free=True)
    if isinstance(options.project, ProjectIndex) and options.project.sections and "**" in text:
        from codemods.project.section_plans import config_sets_strategy

        if config_sets_strategy(options, path):
            options = replace(options, config_strategy=True)
    if not python_triggered(text, options):
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


def process(path: str, mode: Mode, options: Options) -> FileResult:
    """The worker: read, transform, and (in write mode) write one file. Never raises."""
    try:
        file = Path(path)
        data = read_regular(path)
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


def _says_something(item: Scan, hook_classes: frozenset[tuple[str, str]]) -> bool:
    """Whether a file's scan can matter to its project's plan: it needs work, or holds something the plan reads
    (``hook_classes``: every project's, a superset of its own)."""
    if item.triggered or item.index != _EMPTY or item.trainers or item.words or item.loggers or item.bases:
        return True
    return item.hooks[0] or subclasses_one(item.hooks, hook_classes)


_EMPTY = FileIndex()


def _plan_project(scans: list[Scan], options: Options, root: str) -> tuple[list[Scan], Options]:
    """One project's decisions from its files' scans: the options its files are migrated with, and which files the
    project's own classes and config uses make worth migrating. ``root``: the project's folder, which messages name
    places relative to."""
    scripts = [item.path for item in scans if item.path.endswith(PYTHON_SUFFIXES)]
    project = ProjectIndex.merge((item.index for item in scans), os.path.relpath(root) if root else "", scripts)
    project = late_facts(scans, project)
    options = replace(options, local_strategies=options.local_strategies | local_strategies(scans), project=project)
    trainers = project_trainers((cls for item in scans for cls in item.trainers), os.path.relpath(root) if root else "")
    # A class mirroring the Trainer that migrates with the configs takes the new flags: its calls
    # (``TrainerConfig(gpus=2, accelerator="ddp")``) migrate like a Trainer's (codemods.project.schema_plans).
    typed: frozenset[str] = frozenset()
    if project.schemas:  # (planning a class loads the rules and libcst: only where the project has one)
        from codemods.project.schema_plans import migrating_schemas

        typed = migrating_schemas(project, options.target_tuple)
        typed |= project_subclasses((item.hooks for item in scans), typed)
    options = replace(
        options, local_trainers=trainers.passing | typed, held_trainers=trainers.held, plain_trainers=trainers.plain
    )
    if any(use.stored for use in project.uses):
        options = replace(options, moved_stores=moved_store_keys(project, options.target_tuple))
    options = _moved_reads(project, options)
    # A file that calls a project subclass of Trainer defined elsewhere needs no Lightning import of its own.
    called = trainers.passing | typed | {name for name, _, _ in trainers.held}
    scans = [replace(item, triggered=True) if item.words & called else item for item in scans]
    # And a file subclassing the project's own LightningModule (or DataModule, Callback): its hooks are checked.
    hook_classes = project_hook_classes(item.hooks for item in scans)
    hook_words = project_hook_words((item.hooks for item in scans), hook_classes)
    logger_lists = any(item.loggers for item in scans)
    dims = dims_classes((item.dims for item in scans), (item.hooks for item in scans), hook_classes)
    options = replace(
        options, hook_classes=hook_classes, hook_words=hook_words, logger_lists=logger_lists, dims_classes=dims
    )
    scans = [replace(item, triggered=True) if subclasses_one(item.hooks, hook_classes) else item for item in scans]
    # And a file whose only legacy is a config read that moves with its key (rule config_reads).
    moving = {(path, key) for path, key, _ in options.read_moves}
    readers = {
        use.path
        for use in project.uses
        if (movable_read(use) and (use.path, use.key) in moving)
        or use.key.partition(".")[2] in options.unset_reads
        or (use.stored and use.key.partition(".")[2] in options.moved_stores)
    }
    scans = [replace(item, triggered=True) if item.path in readers else item for item in scans]
    # And a file whose only legacy is a Trainer-mirroring class with a removed argument as a field (schema_fields).
    schemas = {
        schema.path for schema in project.schemas if any(refused_at(n, options.target_tuple) for n, _ in schema.fields)
    }
    scans = [replace(item, triggered=True) if item.path in schemas else item for item in scans]
    return scans, options


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
    in-process. Only regular files are read, each once: a link to one of them is that file, anything else
    (a pipe, a socket, a link leading out of ``paths`` or nowhere) fails unread (``codemods.files.select_regular``).
    """
    selection = select_regular(paths)
    skipped = [FileResult(path, "failed", error=why) for path, why in selection.skipped]
    if progress:
        for result in skipped:
            progress(result)
        for alias in set(paths) - set(selection.read) - {path for path, _ in selection.skipped}:
            progress(FileResult(alias, "unchanged"))  # read under its other name: done, and no result of its own
    paths = selection.read
    if not paths:
        return skipped
    jobs = jobs or os.cpu_count() or 1
    if jobs == 1 or len(paths) == 1:
        scans = [scan(path) for path in paths]
    else:
        with _context().Pool(min(jobs, len(paths))) as pool:
            scans = list(pool.imap_unordered(scan, paths, chunksize=max(1, min(256, len(paths) // (jobs * 8)))))
    scans.sort(key=lambda item: item.path)  # every later decision iterates in path order, whatever the pool did
    broken = [FileResult(item.path, "failed", error=item.error) for item in scans if item.error]
    if broken:  # a file phase one could not read is no part of any plan: it stays as it is, reported
        if progress:
            for result in broken:
                progress(result)
        skipped += broken
        scans = [item for item in scans if not item.error]
    # Each project (codemods.project.roots) is planned on its own: its index, its classes, its decisions.
    # A file that says nothing to the plan (clean, nothing indexed) is in no project: it stays as it is.
    every_hook_class = project_hook_classes(item.hooks for item in scans)
    relevant = [item for item in scans if _says_something(item, every_hook_class)]
    roots = project_roots([item.path for item in scans], [item.path for item in relevant])
    groups: dict[str, list[Scan]] = {}
    for item in scans:
        groups.setdefault(roots[item.path], []).append(item)
    planned = [_plan_project(group, options, root) for root, group in sorted(groups.items())]
    options_of = {item.path: group_options for group, group_options in planned for item in group}
    scans = sorted((item for group, _ in planned for item in group), key=lambda item: item.path)
    indexed_only = {item.path for item in scans if is_text_file(item.path)}
    results = [
        FileResult(item.path, "unchanged") for item in scans if not item.triggered and item.path not in indexed_only
    ]
    if progress:
        for result in results:
            progress(result)
    kept = [item for item in scans if item.triggered]
    work = [(item.path, mode, options_of[item.path]) for item in kept]
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
    done: list[FileResult] = []
    for group, group_options in planned:
        members = {item.path for item in group}
        mine = [result for result in results if result.path in members]
        done += _blocking_uses(mine, group_options.project, group_options)
    return sorted([*done, *skipped], key=lambda result: result.path)


def _context() -> multiprocessing.context.BaseContext:
    import multiprocessing  # only a parallel run needs it (and it imports socket, pickle, ...)

    return multiprocessing.get_context("spawn" if os.name == "nt" else "fork")


def _moved_reads(project: ProjectIndex, options: Options) -> Options:
    """The options with the keys whose reads move with them, and those whose reads nothing sets
    (``codemods.project.moved_reads``), decided once here."""
    if not any(removed_flag_read(use) for use in project.uses):
        return options
    from codemods.project.moved_reads import (  # it plans sections: loaded only where a read could move
        moved_keys,
        read_moves,
        unset_keys,
    )

    moved = moved_keys(project, options)
    stored = {key for key in moved if any(use.stored and use.key == f"trainer.{key}" for use in project.uses)}
    return replace(
        options,
        read_moves=read_moves(project, options),
        unset_reads=unset_keys(project, options),
        moved_stores=options.moved_stores | stored,  # what the moved reads read: rule config_stores writes it
    )


def _blocking_uses(results: list[FileResult], project: ProjectIndex, options: Options) -> list[FileResult]:
    """A config section left alone because a key of it is used elsewhere: a finding (kind "report") at each such use.

    And an override the run leaves as it is, of an argument the target's Trainer refuses (it holds no config back:
    ``codemods.project.guard``; it fails there anyway): a TODO at the use, since nothing else says so.
    """
    if not project.uses:
        return results  # nothing can be held or refused; and the imports below load every rule (and libcst)
    from codemods.project.command_analysis import command_todo, migrates
    from codemods.project.decisions import RULE, blocked_keys
    from legacy_api.removed_arguments import refused_at

    held: dict[tuple[str, int, str], set[str]] = {}
    for result in results:
        for finding in result.findings:
            if finding.rule != RULE or finding.kind != "todo":
                continue
            for key in blocked_keys(finding.message):
                refused = refused_at(key.partition(".")[2], options.target_tuple)
                for use in project.uses_of(key, outside=result.path, reaching=result.path):
                    if refused and use.kind == "override":
                        continue  # it holds nothing (codemods.project.guard): its own TODO below says what to do
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
    # (a line whose own TODO already asks for a rewrite needs no second one, nor a command the overrides front end
    # writes a TODO on: TALI's 420 generated scripts each got two)
    noted = {(result.path, finding.line) for result in results for finding in result.findings if finding.kind == "todo"}
    for use in project.uses:
        name = use.key.partition(".")[2]
        if (
            use.kind != "override"
            or not use.key.startswith("trainer.")
            or (use.path, use.line) in noted
            or command_todo(use, project, options)
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
