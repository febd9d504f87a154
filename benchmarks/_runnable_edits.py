"""Hand edits after migration: one patch per entry point, each hunk answering a ``TODO(migrate-trainer)``.

The issue's bar is "hand edits only where a TODO names a removed feature". ``benchmarks/runnable/edits/<id>.patch``
is a unified diff against the *migrated* copy (``a/`` and ``b/`` prefixes, paths from the project root), our own
minimal edits, applied with ``patch -p1`` after ``migrate-trainer`` in the ``migrated`` mode. Before applying,
every hunk is placed against what the tool left in the copy; a hunk is *at a TODO* when

* ``near``: a ``TODO(migrate-trainer)`` comment is within ``WINDOW`` lines of the lines it changes, or
* ``report``: the tool's ``--check`` reports a finding within ``WINDOW`` lines whose rule has a TODO comment in the
  same file (the tool's "replaced together with the helper of this file's TODO": ``Trainer.from_argparse_args``
  below an ``add_argparse_args`` TODO), or
* ``named``: a TODO comment anywhere in the project names the hunk's file (a config key kept because
  ``src/training_pipeline.py`` reads it: the edit goes in that file).

Any other hunk is an *edit without a TODO*: the run needed a change the tool did not ask for, which is a finding
about the tool, not a pass. Placing is by position only, so a silent legacy use on a line next to a TODO would be
credited to it; the patch's preamble (the lines before its first ``diff``/``---``, which ``patch`` ignores) declares
such lines, ``no-todo: path:LINE what it is``, and they count as edits without a TODO as well. The placing is pure
(texts in, answers out); ``apply`` is the one side effect.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

EDITS_DIR = Path(__file__).resolve().parent / "runnable" / "edits"
TODO_MARK = "TODO(migrate-trainer)"
#: how many lines a hunk's change may sit from the TODO (or the tool's finding) it answers.
WINDOW = 8
_HUNK = re.compile(r"^@@ -(?P<start>\d+)(?:,(?P<count>\d+))? \+\d+(?:,(?P<new>\d+))? @@")
#: ``# TODO(migrate-trainer): message [rule_id]`` as every frontend writes it (a trailing ``-->`` or ``*/`` aside).
_TODO = re.compile(r"TODO\(migrate-trainer\):\s*(?P<text>.*?)\s*\[(?P<rule>[a-z_]+)\]")


@dataclass(frozen=True)
class Hunk:
    """One hunk of a patch, placed in the old (migrated) file: the 1-based lines it removes or inserts before."""

    path: str
    first: int  # first changed line of the old side (an insertion: the line it goes before)
    last: int  # last changed line of the old side (== first for a pure insertion)


@dataclass(frozen=True)
class Todo:
    """A TODO comment the tool wrote: where, its rule id and its message."""

    path: str
    line: int
    rule: str
    text: str

    def label(self, words: int = 6) -> str:
        """``rule_id: "first words…"``, what the table prints for the TODO a hand edit answers."""
        head = self.text.split()
        short = " ".join(head[:words]) + ("…" if len(head) > words else "")
        return f'{self.rule}: "{short}"'


@dataclass(frozen=True)
class Placed:
    """A hunk and the TODO it answers (``None``: an edit without a TODO), with how it was matched."""

    hunk: Hunk
    todo: Todo | None
    how: str  # "near" / "report" / "named" / "" (none)


def parse_patch(text: str) -> list[Hunk]:
    """The hunks of a unified diff, with their changed lines on the old side (context lines do not count).

    A hunk's body is as long as its header says (old and new counts), so a removed line that starts with ``--``
    is not taken for the next file's header."""
    hunks: list[Hunk] = []
    path = ""
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if line.startswith("--- "):
            old = line[4:].split("\t")[0]
            path = old[2:] if old.startswith("a/") else old
        match = _HUNK.match(line)
        if not match:
            continue
        old_left = int(match["count"] or 1)
        new_left = int(match["new"] or 1)
        number = int(match["start"]) + (1 if old_left == 0 else 0)
        changed: list[int] = []
        before_plus = ""  # the kind of line before the current run of "+" lines
        while index < len(lines) and (old_left > 0 or new_left > 0):
            kind = lines[index][:1]
            index += 1
            if kind == "\\":
                continue
            if kind == "-" or (kind == "+" and before_plus != "-"):
                changed.append(number)  # a pure insertion sits before the old line now at this position
            if kind != "+":
                before_plus = kind
            if kind in (" ", "-", ""):
                old_left -= 1
                number += 1
            if kind in (" ", "+", ""):
                new_left -= 1
        if changed:
            hunks.append(Hunk(path, min(changed), max(changed)))
    return hunks


def declared_without_todo(text: str) -> list[str]:
    """The ``no-todo: path:LINE what`` declarations of a patch's preamble, as ``path:LINE what``."""
    found: list[str] = []
    for line in text.splitlines():
        if line.startswith(("diff ", "--- ")):
            break
        if line.startswith("no-todo:"):
            found.append(line.removeprefix("no-todo:").strip())
    return found


def todos_in(path: str, text: str) -> list[Todo]:
    """The TODO comments of one file."""
    found: list[Todo] = []
    for number, line in enumerate(text.splitlines(), start=1):
        match = _TODO.search(line)
        if match:
            found.append(Todo(path, number, match["rule"], match["text"]))
    return found


def _near(line_span: tuple[int, int], line: int) -> bool:
    first, last = line_span
    return first - WINDOW <= line <= last + WINDOW


def place(hunk: Hunk, todos: Sequence[Todo], findings: Sequence[Mapping[str, object]]) -> Placed:
    """The TODO ``hunk`` answers, by the three rules of the module docstring, in that order."""
    span = (hunk.first, hunk.last)
    same_file = [t for t in todos if t.path == hunk.path]
    near = sorted((abs(t.line - hunk.first), t.line, t) for t in same_file if _near(span, t.line))
    if near:
        return Placed(hunk, near[0][2], "near")
    for finding in findings:
        line = finding.get("line")
        if finding.get("path") == hunk.path and isinstance(line, int) and _near(span, line):
            ruled = [t for t in same_file if t.rule == finding.get("rule")]
            if ruled:
                return Placed(hunk, ruled[0], "report")
    name = Path(hunk.path).name
    for todo in todos:
        if hunk.path in todo.text or re.search(rf"(^|[\s`'\"/]){re.escape(name)}\b", todo.text):
            return Placed(hunk, todo, "named")
    return Placed(hunk, None, "")


def place_all(patch: str, root: Path, findings: Sequence[Mapping[str, object]]) -> list[Placed]:
    """Every hunk of ``patch`` placed against the migrated copy at ``root`` (before the patch is applied)."""
    todos: list[Todo] = []
    for item in findings:
        path = str(item.get("path", ""))
        if item.get("kind") == "todo" and path and path not in {t.path for t in todos}:
            todos.extend(todos_in(path, (root / path).read_text(encoding="utf-8", errors="replace")))
    hunks = parse_patch(patch)
    for hunk in hunks:  # a TODO the --check JSON does not list (another file kind) still counts where it is
        if hunk.path not in {t.path for t in todos} and (root / hunk.path).is_file():
            todos.extend(todos_in(hunk.path, (root / hunk.path).read_text(encoding="utf-8", errors="replace")))
    return [place(hunk, todos, findings) for hunk in hunks]


@dataclass(frozen=True)
class Edits:
    """The hand edits of one migrated run: how each hunk was placed, and whether the patch applied."""

    placed: tuple[Placed, ...] = ()
    declared: tuple[str, ...] = ()  # the preamble's no-todo lines
    applied: bool = True
    message: str = ""  # patch's complaint when it did not apply

    def answered(self) -> list[str]:
        """One label per distinct TODO the edits answer, in patch order."""
        return list(dict.fromkeys(p.todo.label() for p in self.placed if p.todo is not None))

    def without_todo(self) -> list[str]:
        """Where an edit answers no TODO: hunks placed at none, then the preamble's declared lines."""
        return [f"{p.hunk.path}:{p.hunk.first}" for p in self.placed if p.todo is None] + list(self.declared)


def patch_for(entry_id: str, edits_dir: Path = EDITS_DIR) -> Path | None:
    path = edits_dir / f"{entry_id}.patch"
    return path if path.is_file() else None


def apply(patch: Path, root: Path, findings: Sequence[Mapping[str, object]]) -> Edits:
    """Place the hunks of ``patch`` in the migrated copy at ``root``, then apply it there."""
    text = patch.read_text(encoding="utf-8")
    placed = tuple(place_all(text, root, findings))
    result = subprocess.run(
        ["patch", "-p1", "--forward", "--batch", "--no-backup-if-mismatch", "-i", str(patch)],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    declared = tuple(declared_without_todo(text))
    return Edits(
        placed, declared, result.returncode == 0, " ".join(result.stdout.split()[-30:]) if result.returncode else ""
    )
