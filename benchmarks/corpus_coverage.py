"""How much of a project's legacy API a run handled: rewritten, flagged, or left silently (issue 11, "done when").

A legacy use is *rewritten* when the detectors of ``_corpus_detect`` no longer see it after the run, and *flagged* when
it is still there but the run marked it: a ``TODO(migrate-trainer)`` comment on its line or in the comment lines
right above it, or a finding of the CLI (kind ``todo`` or ``report``) on its line or the few lines above (a TODO
sits above the statement it concerns; docs and Python strings get a finding instead of a comment). Everything
else is *silent*. The TODO load is the CLI's TODO findings per rewritten site (its ``fix`` findings).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

#: How far above a use a marker may stand (a TODO above a multi-line call, or above a command's first line); in a
#: command continued with backslashes, back to the line above its first.
REACH = 6


@dataclass
class Coverage:
    before: int = 0
    left: int = 0
    flagged: int = 0
    fixes: int = 0
    todo_findings: int = 0

    @property
    def handled(self) -> int:
        return self.before - self.left + self.flagged

    def add(self, other: Coverage) -> None:
        for name in ("before", "left", "flagged", "fixes", "todo_findings"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def share(self) -> str:
        return f"{100 * self.handled / self.before:.1f} %" if self.before else "—"

    def load(self) -> str:
        ratio = f" (1:{self.fixes / self.todo_findings:.1f})" if self.todo_findings else ""
        return f"{self.todo_findings}/{self.fixes}{ratio}"


_KEY = re.compile(r"^\s*(?:-\s+)?([A-Za-z_]\w*)\s*:")


def _named(line: str, messages: str) -> bool:
    key = _KEY.match(line)
    return key is not None and re.search(rf"\btrainer\.{key.group(1)}\b", messages) is not None


def measure(
    before: int,
    texts_after: Mapping[str, str],
    uses: Callable[[str, str], Iterable[int]],
    findings: Iterable[Mapping[str, object]],
    marker: str,
) -> Coverage:
    """``uses(rel, text)`` yields the line of each legacy use left in a file; ``findings`` are the CLI's JSON rows."""
    rows = list(findings)
    marked: dict[str, set[int]] = {}
    messages: dict[str, str] = {}
    held: dict[str, int] = {}  # a YAML file -> the first line of a section the project guard left alone
    for row in rows:
        if row.get("kind") in ("todo", "report"):
            path, line = str(row["path"]), int(str(row["line"]))
            marked.setdefault(path, set()).add(line)
            messages[path] = messages.get(path, "") + "\n" + str(row.get("message", ""))
            if row.get("rule") == "project_guard" and row.get("kind") == "todo":
                held[path] = min(held.get(path, line), line)
    out = Coverage(before=before)
    out.fixes = sum(1 for row in rows if row.get("kind") == "fix")
    out.todo_findings = sum(1 for row in rows if row.get("kind") == "todo")
    for rel, text in texts_after.items():
        lines = text.splitlines()
        lines_marked = marked.get(rel, set())
        for line in uses(rel, text):
            out.left += 1
            start = line  # a command continued with backslashes: its TODO may stand anywhere from its first line
            while start > 1 and lines[start - 2].rstrip().endswith("\\"):
                start -= 1
            window = range(max(1, min(start - 1, line - REACH)), line + 1)
            if any(n in lines_marked for n in window) or any(marker in lines[n - 1] for n in window if n <= len(lines)):
                out.flagged += 1
            elif rel.endswith((".yaml", ".yml")) and (
                _named(lines[line - 1], messages.get(rel, "")) or held.get(rel, line + 1) <= line
            ):
                out.flagged += 1  # a key of a section the run held: its TODO (on the section) says so
    return out
