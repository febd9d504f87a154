"""Findings as text (``path:line:col RULE message``), JSON, GitHub workflow commands or SARIF 2.1.0."""

from __future__ import annotations

from collections.abc import Sequence

from codemods import __version__
from codemods.runner import FileResult

FORMATS = ("text", "json", "github", "sarif")


def _rows(results: Sequence[FileResult]) -> list[tuple[str, int, int, str, str, str]]:
    rows: list[tuple[str, int, int, str, str, str]] = []
    for result in results:
        for f in result.findings:
            rows.append((result.path, f.line, f.column, f.rule, f.message, f.kind))
        if result.error is not None:
            rows.append((result.path, 1, 1, "error", result.error, "error"))
    return rows


def render(results: Sequence[FileResult], fmt: str) -> str:
    """All findings of ``results`` (already sorted by path) in ``fmt``; empty string when there are none."""
    import json  # only the json and sarif formats need it

    rows = _rows(results)
    if fmt == "json":
        keys = ("path", "line", "column", "rule", "message", "kind")
        return json.dumps([dict(zip(keys, row, strict=True)) for row in rows], indent=2) + "\n"
    if fmt == "sarif":
        return json.dumps(_sarif(rows), indent=2) + "\n"
    lines = []
    for path, line, col, rule, message, kind in rows:
        if fmt == "github":
            level = "error" if kind == "error" else "warning" if kind == "todo" else "notice"
            text = message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
            lines.append(f"::{level} file={path},line={line},col={col},title={rule}::{text}")
        else:
            suffix = " (TODO)" if kind == "todo" else " (report only)" if kind == "report" else ""
            lines.append(f"{path}:{line}:{col} {rule} {message}{suffix}")
    return "".join(line + "\n" for line in lines)


def _sarif(rows: list[tuple[str, int, int, str, str, str]]) -> dict[str, object]:
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
