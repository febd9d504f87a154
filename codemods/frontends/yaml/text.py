"""Text edits on a YAML source: ranges plus replacements, checked for overlap and applied once.

The YAML front end never re-serialises a document. It finds the characters to change through the parser's
marks (``codemods.frontends.yaml.nodes``), describes each change as an :class:`Edit` and splices them all into the
original text here; everything outside the edited ranges stays byte for byte what it was.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass


class EditError(Exception):
    """Two edits overlap, or an edit falls outside the text: the file is left alone."""


@dataclass(frozen=True)
class Edit:
    """Replace ``text[start:end]`` by ``new``; ``start == end`` inserts. ``order`` sorts inserts at one point."""

    start: int
    end: int
    new: str
    order: int = 0


def apply_edits(text: str, edits: Iterable[Edit], base: int = 0) -> str:
    """``text`` (which starts at offset ``base`` of the file the edits address) with every edit spliced in."""
    ordered = sorted(edits, key=lambda e: (e.start, e.end, e.order))
    out: list[str] = []
    pos = base
    for edit in ordered:
        if edit.start < pos or edit.end < edit.start or edit.end > base + len(text):
            raise EditError(f"overlapping or misplaced edit at {edit.start}:{edit.end}")
        out.append(text[pos - base : edit.start - base])
        out.append(edit.new)
        pos = edit.end
    out.append(text[pos - base :])
    return "".join(out)


class Lines:
    """Line geometry of one text: offsets of line starts, the file's newline, comment positions."""

    def __init__(self, text: str, scalars: Sequence[tuple[int, int]] = ()) -> None:
        self.text = text
        self.starts = [0]
        index = text.find("\n")
        while index != -1:
            self.starts.append(index + 1)
            index = text.find("\n", index + 1)
        self.newline = "\r\n" if "\r\n" in text else "\n"
        #: Spans of scalars (keys and values): a ``#`` inside one is text, not a comment.
        self.scalars = sorted(scalars)
        self._scalar_starts = [start for start, _ in self.scalars]

    def line(self, index: int) -> int:
        """0-based line of offset ``index``."""
        return bisect.bisect_right(self.starts, index) - 1

    def start(self, index: int) -> int:
        """Offset of the start of the line holding ``index``."""
        return self.starts[self.line(index)]

    def end(self, index: int) -> int:
        """Offset of the newline (``\\r\\n`` or ``\\n``) ending the line of ``index``, or of the text's end."""
        newline = self.text.find("\n", index)
        if newline == -1:
            return len(self.text)
        return newline - 1 if newline > 0 and self.text[newline - 1] == "\r" else newline

    def next_start(self, index: int) -> int:
        """Offset where the line after the one holding ``index`` starts (the text's end on the last line)."""
        newline = self.text.find("\n", index)
        return len(self.text) if newline == -1 else newline + 1

    def indent(self, index: int) -> str:
        """The whitespace that starts the line of ``index``."""
        start = self.start(index)
        stop = start
        while stop < len(self.text) and self.text[stop] in " \t":
            stop += 1
        return self.text[start:stop]

    def first_on_line(self, index: int) -> bool:
        """Only whitespace precedes ``index`` on its line."""
        return self.text[self.start(index) : index].strip(" \t") == ""

    def in_scalar(self, index: int) -> bool:
        at = bisect.bisect_right(self._scalar_starts, index) - 1
        return at >= 0 and self.scalars[at][0] <= index < self.scalars[at][1]

    def comment(self, index: int) -> int | None:
        """Offset of the comment on the line of ``index`` (after ``index``), or None."""
        stop = self.end(index)
        position = index
        while True:
            position = self.text.find("#", position, stop)
            if position == -1:
                return None
            if (position == 0 or self.text[position - 1] in " \t\r\n") and not self.in_scalar(position):
                return position
            position += 1

    def content_end(self, index: int) -> int:
        """End of the non-blank, non-comment text on the line of ``index``."""
        comment = self.comment(self.start(index))
        stop = comment if comment is not None else self.end(index)
        while stop > self.start(index) and self.text[stop - 1] in " \t":
            stop -= 1
        return stop

    def comments(self) -> list[str]:
        """Every comment of the text, in order (its text from ``#`` to the end of its line)."""
        found = []
        for start in self.starts:
            if start >= len(self.text) and start > 0:
                break
            position = self.comment(start)
            if position is not None:
                found.append(self.text[position : self.end(position)].rstrip(" \t"))
        return found


def shift_lines(block: str, shift: int) -> str | None:
    """Re-indent every line of ``block`` but the first by ``shift`` columns; None when a line lacks the room.

    Blank lines are left as they are (inside block scalars they stay blank; spaces beyond the indentation are
    kept), so only the indentation of the original lines moves and their text and comments ride along.
    """
    lines = block.split("\n")
    out = [lines[0]]
    for line in lines[1:]:
        if line.strip(" \t\r") == "":
            out.append(line[-shift:] if shift < 0 and line.startswith(" " * -shift) else line)
        elif shift >= 0:
            out.append(" " * shift + line)
        elif line.startswith(" " * -shift):
            out.append(line[-shift:])
        else:
            return None
    return "\n".join(out)
