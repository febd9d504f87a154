"""The three runs of one entry point, each in a fresh copy of the project under a temp dir.

* ``migrated``: ``python -m codemods.cli .`` rewrites the copy in place (this checkout's tool, run by the dev
  interpreter), with ``--check --format json`` before and after (the findings, the TODOs left); then the entry
  point runs on real Lightning 2.x.
* ``shim``: the unmigrated copy runs as ``python -m compat.lightning SCRIPT ARGS`` with the repo root on
  ``PYTHONPATH`` (compat is not installed in the venv, as in the ``lightning`` test tier).
* ``plain``: the unmigrated copy runs as ``python SCRIPT ARGS`` (the baseline: what breaks without either).

A run gets the manifest's ``PL_TRAINER_*`` limits and edge variables, ``benchmarks/runnable`` first on
``PYTHONPATH`` (its ``sitecustomize`` applies the shims named in ``RUNNABLE_SHIMS``), a timeout and ``nice``.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from _runnable_edits import TODO_MARK, Edits, apply, patch_for
from _runnable_errors import first_error, last_line
from _runnable_manifest import Entry, Manifest, write_files
from _runnable_venv import ensure_layer

REPO = Path(__file__).resolve().parents[1]
SHIM_DIR = Path(__file__).resolve().parent / "runnable"
MODES = ("migrated", "shim", "plain")
#: variables a run inherits; everything else comes from the manifest (a stray CUDA_VISIBLE_DEVICES or
#: PYTHONPATH of the caller must not change what the projects see).
_INHERITED = ("PATH", "HOME", "LANG", "LC_ALL", "TERM", "USER")


@dataclass(frozen=True)
class Outcome:
    """One run of one entry point in one mode."""

    mode: str
    rc: int  # the exit status; -1 when it timed out
    seconds: float
    error: str = ""  # the exception line of the fatal traceback, or the last line said
    where: str = ""  # deepest project frame of that traceback: "file.py:LINE"
    at_todo: bool = False  # that line, or one of the three above it, holds a TODO(migrate-trainer)
    log: str = ""

    @property
    def ok(self) -> bool:
        return self.rc == 0


@dataclass(frozen=True)
class Migration:
    """What ``migrate-trainer`` said about the copy, before and after rewriting it."""

    before: dict[str, int] = field(default_factory=dict)  # finding kind (fix / todo / report) -> count
    todos: dict[str, int] = field(default_factory=dict)  # rule id -> TODOs left after the rewrite
    reports: int = 0  # report-only findings left after the rewrite
    summary: str = ""  # the tool's last line
    edits: Edits | None = None  # the hand edits of ``runnable/edits/<id>.patch``, when the entry has one


def _copy(entry: Entry, source: Path, into: Path) -> Path:
    root = into / entry.project
    shutil.copytree(source, root, symlinks=True, ignore=shutil.ignore_patterns(".git"))
    write_files(entry, root)
    return root


def _findings(root: Path) -> list[dict[str, object]]:
    result = subprocess.run(
        ["nice", sys.executable, "-m", "codemods.cli", "--check", "--format", "json", "--no-progress", "-j1", "."],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    try:
        found = json.loads(result.stdout or "[]")
    except json.JSONDecodeError:
        return []
    return found if isinstance(found, list) else []


def migrate(root: Path, patch: Path | None = None) -> Migration:
    """Rewrite ``root`` in place with this checkout's migrate-trainer (its findings before and after), then apply
    the hand edits of ``patch``, each hunk placed against the TODOs the tool left."""
    before = Counter(str(item.get("kind")) for item in _findings(root))
    result = subprocess.run(
        ["nice", sys.executable, "-m", "codemods.cli", "--no-progress", "-j1", "."],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    after = _findings(root)
    todos = Counter(str(item.get("rule")) for item in after if item.get("kind") == "todo")
    reports = sum(1 for item in after if item.get("kind") == "report")
    edits = apply(patch, root, after) if patch is not None else None
    summary = last_line(result.stderr)
    return Migration(dict(sorted(before.items())), dict(sorted(todos.items())), reports, summary, edits)


def _env(manifest: Manifest, entry: Entry, root: Path, mode: str, tmp: Path, layer: Path | None) -> dict[str, str]:
    env = {name: os.environ[name] for name in _INHERITED if name in os.environ}
    # the entry's package layer goes before the venv's site-packages (PYTHONPATH always does), so its pins win
    paths = [str(SHIM_DIR), *([str(layer)] if layer else []), *(str(root / p) for p in entry.pythonpath)]
    if mode == "shim":
        paths.append(str(REPO))
    env.update(manifest.env)
    env.update(entry.env)
    env.update(
        PYTHONPATH=os.pathsep.join(paths),
        RUNNABLE_SHIMS=",".join(dict.fromkeys((*manifest.shims, *entry.shims))),
        TMPDIR=str(tmp),
        PYTHONUNBUFFERED="1",
    )
    return env


def _at_todo(root: Path, where: str) -> bool:
    if ":" not in where:
        return False
    rel, line = where.rsplit(":", 1)
    try:
        lines = (root / rel).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return False
    number = int(line)
    return any(TODO_MARK in text for text in lines[max(0, number - 4) : number])


def run_entry(python: Path, manifest: Manifest, entry: Entry, root: Path, mode: str, log: Path) -> Outcome:
    """Run the entry point of the copy at ``root`` (already migrated for ``migrated``); the log goes to ``log``."""
    script = str(root / entry.script)
    command = [str(python), "-m", "compat.lightning", script] if mode == "shim" else [str(python), script]
    tmp = root.parent / f"tmp-{mode}"
    tmp.mkdir(exist_ok=True)
    start = time.monotonic()
    with open(log, "w", encoding="utf-8") as out:
        out.write(f"$ cd {root / entry.cwd} && {' '.join([*command, *entry.args])}\n")
        out.flush()
        process = subprocess.Popen(
            ["nice", "-n", "10", *command, *entry.args],
            cwd=root / entry.cwd,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=_env(manifest, entry, root, mode, tmp, ensure_layer(python, manifest, entry)),
            start_new_session=True,
        )
        try:
            rc = process.wait(timeout=manifest.timeout_s)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)  # the run's own process group: its dataloader workers too
            process.wait()
            rc = -1
    seconds = time.monotonic() - start
    text = log.read_text(encoding="utf-8", errors="replace")
    if rc == -1:
        return Outcome(mode, rc, seconds, f"timeout after {manifest.timeout_s} s", log=str(log))
    found = first_error(text, str(root))
    if rc == 0 and found is None:
        return Outcome(mode, rc, seconds, log=str(log))
    error = found.line if found else last_line(text)
    where = found.where if found else ""
    return Outcome(mode, rc, seconds, error, where, _at_todo(root, where), str(log))


def run_mode(
    python: Path, manifest: Manifest, entry: Entry, source: Path, mode: str, work: Path, logs: Path
) -> tuple[Outcome, Migration | None]:
    """A fresh copy of ``source`` under ``work``, migrated first for ``migrated``, then the entry point's run."""
    base = work / f"{entry.id}-{mode}"
    base.mkdir(parents=True)
    root = _copy(entry, source, base)
    migration = migrate(root, patch_for(entry.id)) if mode == "migrated" else None
    logs.mkdir(parents=True, exist_ok=True)
    return run_entry(python, manifest, entry, root, mode, logs / f"{entry.id}.{mode}.log"), migration
