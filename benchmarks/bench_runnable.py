"""Real corpus projects run on the newest Lightning 2.x: migrated, through ``compat.lightning``, and as they are.

    python benchmarks/bench_runnable.py [--only ID_OR_PROJECT ...] [--modes migrated,shim,plain]
                                        [--corpus-src /work/corpus-src] [--mirrors /work/.mirror]
                                        [--keep DIR] [--json PATH]

The entry points, their argv, extra packages, shims and synthetic input files are listed in
``benchmarks/corpus/runnable.json`` (``_runnable_manifest.py`` has the schema); the projects' code is never
committed here nor edited: each run works on a fresh copy of ``<corpus-src>/<project>`` (else materialised from
the git mirror at the manifest's pinned commit of ``benchmarks/corpus/manifest.json``). All runs use one venv
with real Lightning 2.x and CPU torch (``_runnable_venv.py``, built once and cached). Per entry point it prints
one table row: migrated with the hand edits of ``runnable/edits/<id>.patch`` (runs / fails, the fatal exception's
line and the project's file:line it came from, the TODOs each edit answers and any edit at no TODO, the TODOs left
by rule id; ``_runnable_edits.py``), through the shim, and unmigrated without the shim. Logs of every run stay under
``~/.cache/lightning-migrate/runnable-runs/``. Exit status 0 whatever the projects did (CI does not run this).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))
from _corpus_trees import find_mirror, materialise
from _runnable_edits import Edits
from _runnable_manifest import MANIFEST, Entry, Manifest, known_shims, load
from _runnable_modes import MODES, Migration, Outcome, run_mode
from _runnable_venv import cache_root, ensure_venv, versions

CORPUS_MANIFEST = Path(__file__).resolve().parent / "corpus" / "manifest.json"


def _source(project: str, corpus_src: Path, mirrors: Path, work: Path) -> Path | None:
    """The project's pristine tree: the materialised copy, else the mirror at the pinned commit."""
    if (corpus_src / project).is_dir():
        return corpus_src / project
    rows = json.loads(CORPUS_MANIFEST.read_text(encoding="utf-8"))
    row = next((r for r in rows if r["name"] == project), None)
    git_dir = find_mirror(mirrors, row["repo"]) if row else None
    if row is None or git_dir is None:
        return None
    dest = work / "sources" / project
    materialise(git_dir, row["commit"], [], dest)
    return dest


def _cell(outcome: Outcome | None, migration: Migration | None = None) -> str:
    if outcome is None:
        return "—"
    status = f"**runs** ({outcome.seconds:.0f} s)" if outcome.ok else f"**fails** ({outcome.seconds:.0f} s)"
    parts = [status]
    if not outcome.ok:
        where = f" at `{outcome.where}`" + (" (a TODO's line)" if outcome.at_todo else "") if outcome.where else ""
        parts.append(f"`{outcome.error.replace('|', '/')}`{where}")
    if migration is not None:
        parts.extend(_edits_lines(migration.edits))
        todos = ", ".join(f"{rule} x{n}" for rule, n in migration.todos.items()) or "none"
        parts.append(f"TODOs the tool left {sum(migration.todos.values())}: {todos}")
    return "<br>".join(parts)


def _edits_lines(edits: Edits | None) -> list[str]:
    """The hand edits of a migrated run: how many hunks, the TODOs they answer, and any edit that answers none."""
    if edits is None:
        return ["hand edits: none"]
    lines = [f"hand edits {len(edits.placed)} (hunks), answering: " + "; ".join(edits.answered())]
    if edits.without_todo():
        lines.append(f"**edits without a TODO {len(edits.without_todo())}**: " + "; ".join(edits.without_todo()))
    if not edits.applied:
        lines.append(f"**the patch did not apply**: {edits.message}")
    return [line.replace("|", "/") for line in lines]


def print_table(rows: list[tuple[Entry, dict[str, tuple[Outcome, Migration | None]]]]) -> None:
    print("| entry point | migrated + hand edits at TODOs | unmigrated via `compat.lightning` | unmigrated, plain |")
    print("|---|---|---|---|")
    for entry, results in rows:
        head = f"{entry.project}<br>`{' '.join([entry.script, *entry.args])}`"
        if entry.pre_1_5:
            head += "<br>*pre-1.5 code: fails on 1.5.10 too*"
        migrated = results.get("migrated", (None, None))
        print(
            f"| {head} | {_cell(*migrated)} | {_cell(results.get('shim', (None, None))[0])} "
            f"| {_cell(results.get('plain', (None, None))[0])} |"
        )
    for mode in MODES:
        done = [results[mode][0] for _, results in rows if mode in results]
        if done:
            print(f"\n{mode}: {sum(o.ok for o in done)} of {len(done)} run", end="")
    print()


def _selected(manifest: Manifest, only: Sequence[str]) -> list[Entry]:
    return [e for e in manifest.entries if not only or e.id in only or e.project in only]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", default=[], metavar="ID", help="entry id or project (repeatable)")
    parser.add_argument("--modes", default=",".join(MODES), help=f"comma-separated subset of {','.join(MODES)}")
    parser.add_argument("--manifest", type=Path, default=MANIFEST)
    parser.add_argument("--corpus-src", type=Path, default=Path("/work/corpus-src"))
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--keep", type=Path, help="keep the project copies here (default: a temp dir, removed)")
    parser.add_argument("--json", type=Path, help="also write every outcome here")
    options = parser.parse_args(argv)
    modes = [m for m in options.modes.split(",") if m]
    if set(modes) - set(MODES):
        parser.error(f"--modes: unknown {sorted(set(modes) - set(MODES))}")
    manifest = load(options.manifest, known_shims())
    entries = _selected(manifest, options.only)
    if not entries:
        parser.error(f"--only {options.only}: no such entry; ids: {[e.id for e in manifest.entries]}")
    python = ensure_venv(manifest)
    print(f"Lightning 2.x venv: {versions(python)}; timeout {manifest.timeout_s} s per run\n")
    logs = cache_root() / "runnable-runs"
    rows: list[tuple[Entry, dict[str, tuple[Outcome, Migration | None]]]] = []
    with tempfile.TemporaryDirectory(prefix="runnable-") as tmp:
        work = options.keep or Path(tmp)
        for entry in entries:
            source = _source(entry.project, options.corpus_src, options.mirrors, work)
            if source is None:
                print(f"{entry.id}: no copy under {options.corpus_src} and no mirror; skipped", file=sys.stderr)
                continue
            results: dict[str, tuple[Outcome, Migration | None]] = {}
            for mode in modes:
                start = time.monotonic()
                results[mode] = run_mode(python, manifest, entry, source, mode, work / "runs", logs)
                outcome = results[mode][0]
                verdict = "runs" if outcome.ok else f"fails: {outcome.error} {outcome.where}"
                print(f"{entry.id} [{mode}] {time.monotonic() - start:.0f} s: {verdict}", file=sys.stderr)
            rows.append((entry, results))
    print_table(rows)
    if options.json:
        dump = {
            e.id: {m: {"outcome": asdict(o), "migration": asdict(g) if g else None} for m, (o, g) in r.items()}
            for e, r in rows
        }
        options.json.write_text(json.dumps(dump, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
