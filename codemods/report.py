"""A run's output: findings as text (``path:line:col RULE message``), JSON, GitHub workflow commands or SARIF 2.1.0,
and the text format's closing summary.

JSON and SARIF are data: every finding as the rules gave it. Text and GitHub annotations are read by a person, so
they show one finding per site and rule (``fold``), and text leaves report-only findings to ``--verbose``: the few
lines that need a person stay findable, and the summary still counts what was left out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from codemods import __version__
from codemods.plan.model import IMPLICIT, OTHER_DEVICES
from codemods.runner import FileResult

FORMATS = ("text", "json", "github", "sarif")
#: Which kind a folded site shows, most severe first: an error or a TODO needs a person, a fix was done, a report
#: only informs.
SEVERITY = ("error", "todo", "fix", "report")
_SUFFIX = {"todo": " (TODO)", "report": " (report only)"}
#: The summary's lists stop here ("and N more"): the summary fits on one screen whatever the project's size.
SUMMARY_ROWS = 15


class Row(NamedTuple):
    """One finding of one file, flat."""

    path: str
    line: int
    column: int
    rule: str
    message: str
    kind: str


def _rows(results: Sequence[FileResult]) -> list[Row]:
    rows: list[Row] = []
    for result in results:
        for f in result.findings:
            rows.append(Row(result.path, f.line, f.column, f.rule, f.message, f.kind))
        if result.error is not None:
            rows.append(Row(result.path, 1, 1, "error", result.error, "error"))
    return rows


def fold(rows: Sequence[Row]) -> list[Row]:
    """One row per (path, line, rule), where its first row was: the most severe kind found there, at the column of
    its first row of that kind, with that kind's distinct messages joined by ``"; "`` (one call's several removed
    arguments stay named; a weaker kind's message at the same site is left to JSON)."""
    sites: dict[tuple[str, int, str], list[Row]] = {}
    for row in rows:
        sites.setdefault((row.path, row.line, row.rule), []).append(row)
    folded = []
    for group in sites.values():
        kind = min((row.kind for row in group), key=SEVERITY.index)
        chosen = [row for row in group if row.kind == kind]
        messages = dict.fromkeys(row.message for row in chosen)  # distinct, in order
        folded.append(chosen[0]._replace(message="; ".join(messages)))
    return folded


def count_todos(results: Sequence[FileResult]) -> int:
    """The TODO sites left: folded rows of kind ``todo`` (what ``--check`` and the closing line count)."""
    return sum(row.kind == "todo" for row in fold(_rows(results)))


#: The rule whose "implicit: ..." reports are a Trainer the target selects other devices for, with no error.
NEW_DEFAULTS_RULE = "trainer_defaults"


def count_new_defaults(results: Sequence[FileResult]) -> int:
    """The sites left where the target picks other devices than 1.x with no error (a ``Trainer()`` with no device
    flags: every GPU with DDP at 2.x, one CPU at 1.x): ``--check`` counts them like TODOs unless accepted."""
    rows, note = _rows(results), IMPLICIT + OTHER_DEVICES
    sites = {(r.path, r.line) for r in rows if r.rule == NEW_DEFAULTS_RULE and r.message.startswith(note)}
    return len(sites - {(r.path, r.line) for r in rows if r.kind == "todo"})


def render(results: Sequence[FileResult], fmt: str, verbose: bool = False) -> str:
    """The findings of ``results`` (already sorted by path) in ``fmt``; empty string when there are none. JSON and
    SARIF carry every finding; text and GitHub fold each site, and text shows report-only ones with ``verbose``."""
    import json  # only the json and sarif formats need it

    rows = _rows(results)
    if fmt == "json":
        return json.dumps([row._asdict() for row in rows], indent=2) + "\n"
    if fmt == "sarif":
        return json.dumps(_sarif(rows), indent=2) + "\n"
    lines = []
    for path, line, col, rule, message, kind in fold(rows):
        if fmt == "github":
            level = "error" if kind == "error" else "warning" if kind == "todo" else "notice"
            text = message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
            lines.append(f"::{level} file={path},line={line},col={col},title={rule}::{text}")
        elif kind != "report" or verbose:
            lines.append(f"{path}:{line}:{col} {rule} {message}{_SUFFIX.get(kind, '')}")
    return "".join(line + "\n" for line in lines)


def summary(results: Sequence[FileResult], verbose: bool = False) -> str:
    """The text format's closing block, one screen at most: the TODOs left by file (most first), the findings by
    rule and kind (rules with the most TODOs first), each list cut at ``SUMMARY_ROWS`` rows; and how many
    report-only findings the listing left out. Counts are of folded sites, as listed. Empty when nothing was found
    (errors are listed, and counted by the closing line)."""
    rows = [row for row in fold(_rows(results)) if row.kind != "error"]
    if not rows:
        return ""
    lines = ["", "Summary:"]
    todos = Counter(row.path for row in rows if row.kind == "todo")
    if todos:
        files = sorted(todos.items(), key=lambda item: (-item[1], item[0]))
        lines.append(f"  TODOs left by file ({sum(todos.values())} in {_count(len(todos), 'file')}):")
        width = len(str(files[0][1]))
        lines += [f"    {count:>{width}}  {path}" for path, count in files[:SUMMARY_ROWS]]
        if files[SUMMARY_ROWS:]:
            rest = files[SUMMARY_ROWS:]
            lines.append(f"    and {_count(len(rest), 'more file')} ({_count(sum(n for _, n in rest), 'TODO')})")
    lines += _by_rule(rows)
    hidden = sum(row.kind == "report" for row in rows)
    if hidden and not verbose:
        hidden_text = _count(hidden, "report-only finding")
        lines.append(f"  {hidden_text} not listed: --verbose lists them (so do json and sarif)")
    return "".join(line + "\n" for line in lines)


def _by_rule(rows: Sequence[Row]) -> list[str]:
    kinds = SEVERITY[1:]  # an error is no rule's finding: the closing line counts failed files
    counts: dict[str, Counter[str]] = {}
    for row in rows:
        counts.setdefault(row.rule, Counter())[row.kind] += 1
    ranked = sorted(counts.items(), key=lambda item: (*(-item[1][kind] for kind in kinds), item[0]))
    table = ranked[:SUMMARY_ROWS]
    if ranked[SUMMARY_ROWS:]:
        rest = ranked[SUMMARY_ROWS:]
        table.append((f"and {_count(len(rest), 'more rule')}", sum((c for _, c in rest), Counter())))
    table.append(("total", sum(counts.values(), Counter())))
    width = max(len("findings by rule") - 2, *(len(name) for name, _ in table))
    lines = [f"  {'findings by rule':<{width + 2}}  {'TODO':>6}  {'fix':>6}  {'report':>6}"]
    for name, count in table:
        cells = "  ".join(f"{count[kind] or '-':>6}" for kind in kinds)
        lines.append(f"    {name:<{width}}  {cells}")
    return lines


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _sarif(rows: list[Row]) -> dict[str, object]:
    from codemods.rules import REGISTRY

    levels = {"error": "error", "todo": "warning", "fix": "note", "report": "note"}
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "migrate-trainer",
                        "version": __version__,
                        "rules": [
                            {"id": rule.id, "shortDescription": {"text": rule.description}}
                            for rule in REGISTRY.values()
                        ],
                    }
                },
                "results": [
                    {
                        "ruleId": rule,
                        "level": levels[kind],
                        "message": {"text": message},
                        "locations": [
                            {
                                "physicalLocation": {
                                    "artifactLocation": {"uri": path},
                                    "region": {"startLine": line, "startColumn": col},
                                }
                            }
                        ],
                    }
                    for path, line, col, rule, message, kind in rows
                ],
            }
        ],
    }
