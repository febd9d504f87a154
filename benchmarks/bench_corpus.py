"""migrate-trainer on real public projects written for Lightning <= 1.5 (issue 10, item 7).

    python benchmarks/bench_corpus.py [--mirrors /work/.mirror] [--project NAME ...] [--heldout]
                                      [--keep DIR] [--json PATH] [--target-version 2.6]

The projects are listed in ``benchmarks/corpus/manifest.json`` (repository, commit, sub-folders); their code is
never committed here. Each one is materialised from a git mirror (``git archive <commit> | tar -x``; the
``fetch`` tool puts mirrors under ``/work/.mirror/<owner>+<name>/``), copied fresh three times and rewritten in
place by ``python -m codemods.cli`` (at its default target) with ``-j1``, ``-j2`` and ``-j1`` again; the first
result is then rewritten once more. Reported per project and in total:

* files (py / yaml / other) and how many the first run changed;
* legacy uses before and after, by this script's own detector (``ast`` for Python, regexes elsewhere), so a
  miss of the codemod is not hidden by sharing its notion of "legacy";
* ``TODO(migrate-trainer)`` markers left;
* wrong-looking outputs: (a) a config key that was removed or renamed in a YAML file while the project still
  reads it (``cfg.trainer.gpus``, ``cfg["trainer"]["gpus"]``, ``trainer.gpus=`` overrides); (b) two strategies
  for one Trainer (``strategy`` next to a strategy object in ``plugins``, or ``strategy=`` beside
  ``**cfg.trainer`` while a YAML config sets ``strategy:``); (c) Python or YAML that parsed before and not after;
  YAML diff lines that touch no migrated key; ``#`` comments present before and missing after;
* determinism (the three runs byte-identical) and idempotency (the second write run changes nothing);
* wall time of each run.

Missing mirrors are listed and skipped; the script then still exits 0 (CI does not run it).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _corpus_checks import (
    MIGRATED_KEYS,
    comments,
    dangling_uses,
    hydra_configs,
    py_parses,
    two_strategies_py,
    two_strategies_yaml,
    unrelated_yaml_lines,
    yaml_keys,
    yaml_loads,
)
from _corpus_detect import detect, silent_legacy, use_lines
from _corpus_records import Project, ProjectReport, Run
from _corpus_report import _capped, _n, print_table
from _corpus_todo import RE_TODO_RULE, TODO_MARK, todo_cause
from _corpus_trees import _texts, digest, file_kind, find_mirror, materialise, snapshot
from corpus_coverage import measure

from legacy_api.renames import DEFAULT_TARGET

ROOT = Path(__file__).resolve().parents[1]
MANIFEST = ROOT / "benchmarks" / "corpus" / "manifest.json"
DEFAULT_MIRRORS = Path("/work/.mirror")

# ---------------------------------------------------------------------------------------------------------
# One project


CODEMODS_PATH: Path | None = None  # --codemods: run the CLI from this folder's ``codemods`` package instead


def run_cli(tree: Path, jobs: int, target: str) -> Run:
    argv = [sys.executable, "-m", "codemods.cli", "--target-version", target, "-j", str(jobs), "--no-progress"]
    argv += ["--format", "json", "."]
    start = time.perf_counter()
    env = dict(os.environ)
    if CODEMODS_PATH is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(CODEMODS_PATH), env.get("PYTHONPATH", "")]))
    proc = subprocess.run(argv, cwd=tree, capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - start
    failed: list[str] = []
    rows: list[dict[str, object]] = []
    try:
        rows = json.loads(proc.stdout) if proc.stdout.strip() else []
        failed = sorted({f"{r['path']}: {r['message']}" for r in rows if r.get("kind") == "error"})
    except json.JSONDecodeError:
        failed = [proc.stdout[-500:]]
    if proc.returncode not in (0, 1, 3):
        failed.append(f"exit {proc.returncode}: {proc.stderr[-2000:]}")
    kept = rows if isinstance(rows, list) else []
    return Run(jobs=jobs, seconds=round(seconds, 3), exit_code=proc.returncode, failed=failed, rows=kept)


def _legacy(texts: dict[str, str]) -> tuple[Counter[str], Counter[str], dict[str, Counter[str]]]:
    total: Counter[str] = Counter()
    by_kind: Counter[str] = Counter()
    per_file: dict[str, Counter[str]] = {}
    for rel, text in texts.items():
        counts = detect(rel, text)
        if counts:
            per_file[rel] = counts
            total.update(counts)
            by_kind[file_kind(rel)] += sum(counts.values())
    return total, by_kind, per_file


def maintainers(
    git_dir: Path,
    project: Project,
    scratch: Path,
    texts_before: dict[str, str],
    texts_after: dict[str, str],
    rows: list[dict[str, object]],
) -> dict[str, object]:
    """What the maintainers did by hand since the pinned commit, against what this run did, on the same files."""
    head = subprocess.run(["git", f"--git-dir={git_dir}", "rev-parse", "HEAD"], capture_output=True, text=True)
    commit = head.stdout.strip()
    if head.returncode != 0 or not commit or commit == project.commit:
        return {}
    later = scratch / "later"
    materialise(git_dir, commit, project.paths, later)
    texts_later = _texts(snapshot(later))
    common = sorted(set(texts_before) & set(texts_later))
    before = sum(sum(detect(rel, texts_before[rel]).values()) for rel in common)
    by_hand = before - sum(sum(detect(rel, texts_later[rel]).values()) for rel in common)
    ours = measure(before, {rel: texts_after[rel] for rel in common if rel in texts_after}, use_lines, rows, TODO_MARK)
    configs = [rel for rel in legacy_configs(texts_before) if rel in texts_later]
    return {
        "commit": commit,
        "files": len(common),
        "legacy": before,
        "by_hand": by_hand,
        "ours": ours.handled,
        "configs": len(configs),
        "configs_left": len(legacy_configs({rel: texts_later[rel] for rel in configs})),
    }


def legacy_configs(texts: dict[str, str]) -> list[str]:
    """The YAML files that still set a legacy Trainer key (``gpus:``, ``accelerator: ddp``, ...)."""
    return sorted(rel for rel, text in texts.items() if file_kind(rel) == "yaml" and sum(detect(rel, text).values()))


def evaluate(project: Project, git_dir: Path, scratch: Path, target: str, keep: Path | None) -> ProjectReport:
    report = ProjectReport(project.name, project.repo, project.commit, project.heldout)
    source = scratch / "source"
    report.missing_blobs = materialise(git_dir, project.commit, project.paths, source)
    before = snapshot(source)
    report.files = dict(Counter(file_kind(rel) for rel in before))

    trees = []
    for i, jobs in enumerate((1, 2, 1)):
        copy = scratch / f"run{i}"
        shutil.copytree(source, copy, symlinks=True)
        report.runs.append(run_cli(copy, jobs, target))
        trees.append(snapshot(copy))
    after = trees[0]
    hashes = [digest(t) for t in trees]
    report.nondeterministic = sorted(rel for rel in set().union(*hashes) if len({h.get(rel) for h in hashes}) > 1)

    second = scratch / "second"
    shutil.copytree(scratch / "run0", second, symlinks=True)
    report.second_run = run_cli(second, 1, target)
    twice = snapshot(second)
    report.not_idempotent = sorted(rel for rel in set(after) | set(twice) if after.get(rel) != twice.get(rel))

    changed = sorted(rel for rel in set(before) | set(after) if before.get(rel) != after.get(rel))
    report.changed = dict(Counter(file_kind(rel) for rel in changed))
    texts_before, texts_after = _texts(before), _texts(after)

    legacy_b, kind_b, _ = _legacy(texts_before)
    legacy_a, kind_a, per_file_a = _legacy(texts_after)
    report.legacy_before, report.legacy_after = dict(legacy_b), dict(legacy_a)
    report.legacy_by_kind_before, report.legacy_by_kind_after = dict(kind_b), dict(kind_a)
    report.legacy_left = [{"path": rel, **dict(c)} for rel, c in sorted(per_file_a.items())]

    report.coverage = measure(_n(report.legacy_before), texts_after, use_lines, report.runs[0].rows, TODO_MARK)
    report.maintainers = maintainers(git_dir, project, scratch, texts_before, texts_after, report.runs[0].rows)
    configs = legacy_configs(texts_before)
    report.legacy_configs = [len(configs), len(legacy_configs({rel: texts_after.get(rel, "") for rel in configs}))]
    report.silent_legacy = [hit for rel in sorted(texts_after) for hit in silent_legacy(rel, texts_after[rel])]
    report.silent_legacy = [h for h in report.silent_legacy if file_kind(str(h["path"])) == "py"]
    report.todo_rules = dict(
        sorted(Counter(m for text in texts_after.values() for m in RE_TODO_RULE.findall(text)).items())
    )
    report.todo_findings = [
        {
            "rule": str(row.get("rule", "")),
            "message": str(row.get("message", "")),
            "path": str(row.get("path", "")),
            "line": row.get("line"),
            "cause": todo_cause(str(row.get("rule", "")), str(row.get("message", ""))),
        }
        for row in report.runs[0].rows
        if row.get("kind") == "todo"
    ]
    report.todo_causes = dict(Counter(str(f["cause"]) for f in report.todo_findings))
    todo_counts = {rel: text.count(TODO_MARK) for rel, text in texts_after.items() if TODO_MARK in text}
    report.todos = sum(todo_counts.values())
    report.todo_files = sorted(todo_counts)

    removed: list[str] = []
    strategy_yamls: set[str] = set()
    for rel in sorted(texts_after):
        text_a = texts_after[rel]
        text_b = texts_before.get(rel)
        if file_kind(rel) == "yaml":
            if re.search(r"^\s*strategy\s*:", text_a, re.M):
                strategy_yamls.add(os.path.normpath(rel))
            if text_b is not None and text_b != text_a:
                lost_keys = yaml_keys(text_b) - yaml_keys(text_a)
                removed += [k for k in lost_keys if k in MIGRATED_KEYS]
    report.removed_keys = sorted(set(removed))
    flagged = frozenset(
        (os.path.normpath(str(row["path"])), int(str(row["line"])))
        for row in report.runs[0].rows
        if row.get("kind") == "todo" and "line" in row
    )
    report.dangling = dangling_uses(report.removed_keys, texts_after, flagged)

    yamls = {os.path.normpath(r): t for r, t in texts_after.items() if file_kind(r) == "yaml"}
    for rel in changed:
        old_text, new_text = texts_before.get(rel), texts_after.get(rel)
        if old_text is None or new_text is None:
            continue
        text_b, text_a = old_text, new_text
        kind = file_kind(rel)
        if kind == "py":
            if py_parses(text_b) and not py_parses(text_a):
                report.unparseable.append(rel)
            # a script that names its Hydra config meets only the YAML it loads; any other may meet any
            loaded = hydra_configs(text_a, rel, yamls)
            sets = bool(strategy_yamls & loaded) if loaded is not None else bool(strategy_yamls)
            two_b = len(two_strategies_py(text_b, sets))
            report.two_strategies += [f"{rel}:{w}" for w in two_strategies_py(text_a, sets)[two_b:]]
        elif kind == "yaml":
            if yaml_loads(text_b) and yaml_loads(text_a) is False:
                report.unparseable.append(rel)
            two_b = len(two_strategies_yaml(text_b))
            report.two_strategies += [f"{rel}:{w}" for w in two_strategies_yaml(text_a)[two_b:]]
            report.yaml_unrelated += [{"path": rel, "line": ln} for ln in unrelated_yaml_lines(text_b, text_a)]
        lost = comments(rel, text_b) - comments(rel, text_a)
        report.comments_lost += [{"path": rel, "comment": c, "count": n} for c, n in sorted(lost.items())]

    if keep is not None:
        dest = keep / project.name
        if dest.exists():
            shutil.rmtree(dest)
        dest.mkdir(parents=True)
        shutil.copytree(source, dest / "before", symlinks=True)
        shutil.copytree(scratch / "run0", dest / "after", symlinks=True)
        if report.not_idempotent:
            shutil.copytree(second, dest / "second", symlinks=True)
        for i in (1, 2):
            if any(digest(trees[i]).get(rel) != hashes[0].get(rel) for rel in report.nondeterministic):
                shutil.copytree(scratch / f"run{i}", dest / f"run{i}", symlinks=True)
    return report


def codemods_version() -> dict[str, str]:
    """The commit and a digest of ``codemods/`` as run: the package is edited in place while others work."""
    base = CODEMODS_PATH if CODEMODS_PATH is not None else ROOT
    sources = sorted((base / "codemods").rglob("*.py"))
    tree = hashlib.sha256(b"".join(p.relative_to(base).as_posix().encode() + p.read_bytes() for p in sources))
    if CODEMODS_PATH is not None:
        return {"codemods_path": str(CODEMODS_PATH), "codemods_sha256": tree.hexdigest()}
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(
        ["git", "-C", str(ROOT), "status", "--porcelain", "--", "codemods"], capture_output=True, text=True
    )
    return {
        "head": head.stdout.strip(),
        "codemods_dirty": "yes" if dirty.stdout.strip() else "no",
        "codemods_sha256": tree.hexdigest(),
    }


def load_manifest(path: Path) -> list[Project]:
    rows = json.loads(path.read_text(encoding="utf-8"))
    return [
        Project(
            name=str(row["name"]),
            repo=str(row["repo"]),
            commit=str(row["commit"]),
            paths=[str(p) for p in row.get("paths", [])],
            why=str(row.get("why", "")),
            heldout=bool(row.get("heldout", False)),
        )
        for row in rows
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--mirrors", type=Path, default=DEFAULT_MIRRORS, help="folder of git mirrors (owner+name)")
    parser.add_argument("--manifest", type=Path, default=MANIFEST)
    parser.add_argument("--project", action="append", default=[], help="run only this project (repeatable)")
    parser.add_argument("--heldout", action="store_true", help="include the held-out projects")
    parser.add_argument("--keep", type=Path, help="keep before/after trees here (DIR/<project>/{before,after})")
    parser.add_argument("--json", type=Path, help="write the full report here")
    parser.add_argument("--target-version", default=DEFAULT_TARGET, help=f"default: {DEFAULT_TARGET}, the tool's")
    parser.add_argument(
        "--codemods",
        type=Path,
        help="a checkout (`git archive <commit>` extracted) whose codemods run instead of the installed ones",
    )
    args = parser.parse_args(argv)
    global CODEMODS_PATH
    CODEMODS_PATH = args.codemods.resolve() if args.codemods is not None else None

    projects = load_manifest(args.manifest)
    if args.project:
        unknown = sorted(set(args.project) - {p.name for p in projects})
        if unknown:
            parser.error(f"unknown project(s): {', '.join(unknown)}")
        projects = [p for p in projects if p.name in args.project]
    elif not args.heldout:
        projects = [p for p in projects if not p.heldout]

    missing = [p for p in projects if find_mirror(args.mirrors, p.repo) is None]
    for p in missing:
        print(f"mirror missing: {p.repo} (expected under {args.mirrors / p.repo.replace('/', '+')}); skipped")
    reports: list[ProjectReport] = []
    for project in projects:
        git_dir = find_mirror(args.mirrors, project.repo)
        if git_dir is None:
            continue
        with tempfile.TemporaryDirectory(prefix=f"corpus-{project.name}-") as tmp:
            try:
                report = evaluate(project, git_dir, Path(tmp), args.target_version, args.keep)
            except subprocess.CalledProcessError as exc:
                print(f"{project.name}: could not materialise {project.commit}: {exc}", file=sys.stderr)
                continue
        reports.append(report)
        print(f"done {project.name}: {sum(r.seconds for r in report.runs):.1f} s", file=sys.stderr, flush=True)
    if reports:
        print_table(reports)
    else:
        print("no project could be run")
    if args.json is not None:
        payload = {
            "target_version": args.target_version,
            "codemods": codemods_version(),
            "missing_mirrors": [p.repo for p in missing],
            "projects": [_capped(r) for r in reports],
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(payload, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
