"""Run the migration over many files: a process pool over files, a worker that never raises.

Each worker returns a frozen :class:`FileResult`; the parent only counts, sorts and prints. One file or
``jobs=1`` stays in-process (no pool start-up cost, easy debugging).
"""

from __future__ import annotations

import difflib
import multiprocessing
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from codemods.engine import Finding, Options, Outcome, prefilter_tokens, transform_python
from codemods.files import PYTHON_SUFFIXES, DecodeError, decode, encode, write_atomic
from codemods.renames import STRATEGY_CLASSES

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
    lines = difflib.unified_diff(
        before.splitlines(keepends=True), after.splitlines(keepends=True), f"a/{path}", f"b/{path}"
    )
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


def transform_text(text: str, path: str, options: Options, tokens: Sequence[str] | None = None) -> Outcome:
    """Dispatch on the file type."""
    if path.endswith((".yaml", ".yml")):
        from codemods.yaml_config import transform_yaml

        return transform_yaml(text, options, path)
    return transform_python(text, options, tokens)


def process(path: str, mode: Mode, options: Options, tokens: Sequence[str] | None = None) -> FileResult:
    """The worker: read, transform, and (in write mode) write one file. Never raises."""
    try:
        file = Path(path)
        data = file.read_bytes()
        try:
            decoded = decode(data, python=path.endswith(PYTHON_SUFFIXES))
        except DecodeError as exc:
            return FileResult(path, "failed", error=str(exc))
        outcome = transform_text(decoded.text, path, options, tokens)
        if outcome.error is not None:
            return FileResult(path, "failed", outcome.findings, outcome.error)
        if not outcome.changed:
            return FileResult(path, "unchanged", outcome.findings)
        diff = unified_diff(path, decoded.text, outcome.source) if mode == "diff" else ""
        if mode == "write":
            write_atomic(file, encode(decoded, outcome.source))
        return FileResult(path, "changed", outcome.findings, diff=diff)
    except Exception as exc:  # the worker's contract: report, never raise
        return FileResult(path, "failed", error=f"{type(exc).__name__}: {exc}")


_CLASS = re.compile(r"^\s*class\s+(\w+)\s*\(([^)]*)\)", re.MULTILINE)


def scan_local_strategies(paths: Sequence[str]) -> frozenset[str]:
    """Project classes deriving (directly or not) from a strategy plugin: ``class MyDDPPlugin(DDPPlugin)``.

    A text scan, so a subclass defined in one file is recognised in ``plugins=[MyDDPPlugin()]`` in another.
    """
    bases: dict[str, set[str]] = {}
    for path in paths:
        if not path.endswith(PYTHON_SUFFIXES):
            continue
        try:
            text = Path(path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if "Plugin" not in text and "Strategy" not in text:
            continue
        for name, base_list in _CLASS.findall(text):
            bases.setdefault(name, set()).update(b.strip().rpartition(".")[2] for b in base_list.split(","))
    found: set[str] = set()
    known = set(STRATEGY_CLASSES)
    while True:
        new = {name for name, parents in bases.items() if name not in found and parents & (known | found)}
        if not new:
            return frozenset(found - known)
        found |= new


def _work(job: tuple[str, Mode, Options, tuple[str, ...]]) -> FileResult:
    return process(*job)


def run(
    paths: Sequence[str],
    mode: Mode,
    options: Options,
    jobs: int | None = None,
    progress: Callable[[FileResult], None] | None = None,
) -> list[FileResult]:
    """Process ``paths`` (in parallel when worth it) and return the results sorted by path."""
    if not paths:
        return []
    options = replace(options, local_strategies=options.local_strategies | scan_local_strategies(paths))
    tokens = prefilter_tokens(options)
    work = [(path, mode, options, tokens) for path in paths]
    jobs = jobs or os.cpu_count() or 1
    results: list[FileResult] = []
    if jobs == 1 or len(paths) == 1:
        for job in work:
            results.append(_work(job))
            if progress:
                progress(results[-1])
    else:
        chunksize = max(1, min(64, len(work) // (jobs * 4)))
        with multiprocessing.get_context("spawn" if os.name == "nt" else "fork").Pool(min(jobs, len(work))) as pool:
            for result in pool.imap_unordered(_work, work, chunksize=chunksize):
                results.append(result)
                if progress:
                    progress(result)
    return sorted(results, key=lambda result: result.path)
