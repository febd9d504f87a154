"""The Markdown tables printed at the end of a corpus run, and the per-project dicts of its JSON report."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict

from _corpus_records import ProjectReport
from corpus_coverage import Coverage

LIST_CAP = 200  # entries kept per list in the JSON report


def _n(counts: dict[str, int]) -> int:
    return sum(counts.values())


def _comments_lost_count(r: ProjectReport) -> int:
    return sum(int(str(c["count"])) for c in r.comments_lost)


def _yes_no(bad: int) -> str:
    return "yes" if not bad else f"no ({bad})"


def _coverage(reports: Sequence[ProjectReport]) -> Coverage:
    total = Coverage()
    for r in reports:
        total.add(r.coverage)
    return total


def _todo_load(reports: Sequence[ProjectReport]) -> str:
    """``todo (removed / unread) / fixes (1:fixes per TODO, unread 1:fixes per unread TODO)``."""
    cov = _coverage(reports)
    removed = sum(r.todo_causes.get("removed", 0) for r in reports)
    unread = sum(r.todo_causes.get("unread", 0) for r in reports)
    ratios = [f"1:{cov.fixes / cov.todo_findings:.1f}"] if cov.todo_findings else []
    if unread:
        ratios.append(f"unread 1:{cov.fixes / unread:.1f}")
    tail = f" ({', '.join(ratios)})" if ratios else ""
    return f"{cov.todo_findings} ({removed} / {unread}) / {cov.fixes}{tail}"


def _by_hand(reports: Sequence[ProjectReport]) -> str:
    done = [r.maintainers for r in reports if r.maintainers]
    if not done:
        return "—"
    return f"{sum(int(str(m['by_hand'])) for m in done)} / {sum(int(str(m['ours'])) for m in done)}"


def _configs(reports: Sequence[ProjectReport]) -> str:
    """``legacy YAML files before → after this run (maintainers: of those still there at HEAD, left legacy)``."""
    before = sum(r.legacy_configs[0] for r in reports)
    after = sum(r.legacy_configs[1] for r in reports)
    done = [r.maintainers for r in reports if r.maintainers and "configs" in r.maintainers]
    there = sum(int(str(m["configs"])) for m in done)
    left = sum(int(str(m["configs_left"])) for m in done)
    return f"{before} → {after} (by hand: {there} → {left})" if there else f"{before} → {after}"


def _row(name: str, reports: Sequence[ProjectReport]) -> list[str]:
    files = Counter[str]()
    changed = Counter[str]()
    for r in reports:
        files.update(r.files)
        changed.update(r.changed)
    walls = [sum(r.runs[i].seconds for r in reports if len(r.runs) > i) for i in range(3)]
    failed = sum(len(run.failed) for r in reports for run in r.runs[:1])
    return [
        name,
        f"{files['py']}/{files['yaml']}/{files['other']}",
        f"{changed['py']}/{changed['yaml']}/{changed['other']}",
        f"{sum(_n(r.legacy_before) for r in reports)} → {sum(_n(r.legacy_after) for r in reports)}",
        str(sum(len(r.silent_legacy) for r in reports)),
        _coverage(reports).share(),
        _todo_load(reports),
        _by_hand(reports),
        _configs(reports),
        str(sum(r.todos for r in reports)),
        str(sum(len(r.dangling) for r in reports)),
        str(sum(len(r.two_strategies) for r in reports)),
        str(sum(len(r.unparseable) for r in reports)),
        str(sum(len(r.yaml_unrelated) for r in reports)),
        str(sum(_comments_lost_count(r) for r in reports)),
        str(failed),
        _yes_no(sum(len(r.nondeterministic) for r in reports)),
        _yes_no(sum(len(r.not_idempotent) for r in reports)),
        " / ".join(f"{w:.1f}" for w in walls),
    ]


HEADER = [
    "project",
    "files py/yaml/other",
    "changed py/yaml/other",
    "legacy before → after",
    "silent legacy (py, no TODO)",
    "rewritten or flagged",
    "TODO findings (removed / unread) / fixes",
    "maintainers by hand / this run (same files)",
    "YAML files with legacy keys before → after",
    "TODOs",
    "(a) dangling key uses",
    "(b) two strategies",
    "(c) unparseable",
    "YAML unrelated lines",
    "comments lost",
    "files failed",
    "deterministic",
    "idempotent",
    "wall s -j1/-j2/-j1",
]


def print_table(reports: Sequence[ProjectReport]) -> None:
    rows = [_row(r.name + (" (held out)" if r.heldout else ""), [r]) for r in reports]
    working = [r for r in reports if not r.heldout]
    heldout = [r for r in reports if r.heldout]
    if working and heldout:
        rows.append(_row("**working**", working))
        rows.append(_row("**held out**", heldout))
    rows.append(_row("**total**", reports))
    print("| " + " | ".join(HEADER) + " |")
    print("|" + "|".join("---" if i == 0 else "---:" for i in range(len(HEADER))) + "|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    categories = sorted({k for r in reports for k in (*r.legacy_before, *r.legacy_after)})
    if categories:
        print()
        print("| legacy use (detector) | before | after |")
        print("|---|---:|---:|")
        for cat in categories:
            b = sum(r.legacy_before.get(cat, 0) for r in reports)
            a = sum(r.legacy_after.get(cat, 0) for r in reports)
            print(f"| {cat} | {b} | {a} |")
        for kind in ("py", "yaml", "other"):
            b = sum(r.legacy_by_kind_before.get(kind, 0) for r in reports)
            a = sum(r.legacy_by_kind_after.get(kind, 0) for r in reports)
            print(f"| (in {kind} files) | {b} | {a} |")


def _capped(report: ProjectReport) -> dict[str, object]:
    data = asdict(report)
    for run in data["runs"]:
        run.pop("rows", None)
    if data.get("second_run"):
        data["second_run"].pop("rows", None)
    data["coverage"]["handled"] = report.coverage.handled
    for key, value in list(data.items()):
        if isinstance(value, list) and len(value) > LIST_CAP:
            data[key] = value[:LIST_CAP]
            data[f"{key}_total"] = len(value)
    return data
