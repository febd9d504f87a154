"""IPython syntax in a notebook cell, hidden from the Python rules and put back byte for byte afterwards.

A code cell is Python plus IPython's own lines: shell escapes (``!pip install ...``, ``files = !ls``), line
magics (``%matplotlib inline``, ``%load_ext ...``, ``x = %timeit -o f()``), help (``?obj``, ``obj??``) and a
cell magic on the first line (``%%time``). Each such line -- with the lines a trailing backslash continues it
onto -- becomes one placeholder line, ``import __migrate_trainer_ipython_<n>__`` at the line's indentation:

* one line for one line, so line numbers (findings, the JSON positions they map to) stay right;
* an import, so a magic between two imports (``import os`` / ``%matplotlib inline`` / ``import torch``) does
  not end the leading import block where the rules add imports, and an indented one is a valid statement;
* a name no rule resolves, so nothing rewrites or drops it; :func:`unmask` finds each by its number.

Only lines that start a logical line are IPython's: a ``!`` or ``?`` inside a triple-quoted string or a bracket
is left to Python (a small scanner tracks strings, brackets and backslash continuations, as IPython's own
line splitter does). A cell magic whose body is Python (:data:`PYTHON_CELL_MAGICS`, ``%%time``) has only its
first line masked; any other (``%%bash``, ``%%writefile``, ``%%html``) makes the cell no Python at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Cell magics that run their body as Python: the body is migrated, the ``%%`` line kept.
PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "debug"})
_PLACEHOLDER = "import __migrate_trainer_ipython_{}__"
_PLACEHOLDER_LINE = re.compile(r"^([ \t]*)import __migrate_trainer_ipython_(\d+)__(\r\n|\r|\n)?$")
_LINES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")
#: ``obj?``, ``obj.attr??``, ``%magic?``, ``np.*load*?``: a dotted name (wildcards allowed) and one or two ``?``.
_HELP_END = re.compile(r"^[ \t]*%{0,2}[\w*]+(?:\.[\w*]+)*[ \t]*\?\??[ \t]*$")
#: ``files = !ls``, ``a, b = %sx cmd``, ``t = %timeit -o f()``.
_ASSIGNED = re.compile(r"^[ \t]*[A-Za-z_]\w*(?:[ \t]*,[ \t]*[A-Za-z_]\w*)*[ \t]*=[ \t]*[!%]")
_OPEN, _CLOSE = "([{", ")]}"


def split_lines(text: str) -> list[str]:
    """``text``'s lines with their endings (``\\n``, ``\\r\\n`` or ``\\r``, the ones Python knows)."""
    return _LINES.findall(text)


@dataclass(frozen=True)
class Masked:
    """A cell's text with its IPython lines replaced; ``python`` is False for a non-Python cell magic."""

    text: str
    #: placeholder number -> the original line(s) it stands for.
    lines: dict[int, str]
    python: bool = True


def _is_ipython(line: str) -> bool:
    stripped = line.lstrip(" \t")
    return stripped[:1] in ("!", "%", "?") or bool(_HELP_END.match(line)) or bool(_ASSIGNED.match(line))


class _Scanner:
    """Where Python's logical lines start: outside strings and brackets, not after a backslash."""

    def __init__(self) -> None:
        self.quote = ""  # the open string's quote ('"', "'", '"""' or "'''"), if any
        self.depth = 0
        self.continued = False

    @property
    def at_start(self) -> bool:
        return not self.quote and self.depth == 0 and not self.continued

    def feed(self, line: str) -> None:
        body = line.rstrip("\r\n")
        i, n = 0, len(body)
        while i < n:
            char = body[i]
            if self.quote:
                if char == "\\":
                    i += 2
                    continue
                if body.startswith(self.quote, i):
                    i += len(self.quote)
                    self.quote = ""
                    continue
                i += 1
                continue
            if char == "#":
                break
            if char in "\"'":
                self.quote = char * 3 if body.startswith(char * 3, i) else char
                i += len(self.quote)
                continue
            if char in _OPEN:
                self.depth += 1
            elif char in _CLOSE:
                self.depth = max(0, self.depth - 1)
            i += 1
        self.continued = body.endswith("\\") and not (self.quote and len(self.quote) == 3)
        if len(self.quote) == 1 and not self.continued:
            self.quote = ""  # an unclosed one-line string ends with its line (a syntax error Python reports)


def mask(text: str, first: int = 0) -> Masked:
    """``text`` with every IPython line replaced by a placeholder numbered from ``first`` on."""
    lines = split_lines(text)
    out: list[str] = []
    saved: dict[int, str] = {}
    start = next((i for i, line in enumerate(lines) if line.strip()), len(lines))
    if start < len(lines) and lines[start].lstrip(" \t").startswith("%%"):
        words = lines[start].lstrip(" \t")[2:].split()
        if not words or words[0] not in PYTHON_CELL_MAGICS:
            return Masked(text, {}, python=False)
    scanner = _Scanner()
    i = 0
    while i < len(lines):
        line = lines[i]
        if not scanner.at_start or not _is_ipython(line):
            scanner.feed(line)
            out.append(line)
            i += 1
            continue
        end = i + 1
        while lines[end - 1].rstrip("\r\n").endswith("\\") and end < len(lines):
            end += 1  # a magic continued onto the next line: one placeholder per line, at the first's indent
        indent = line[: len(line) - len(line.lstrip(" \t"))]
        for j in range(i, end):
            number = first + len(saved)
            saved[number] = lines[j]
            ending = lines[j][len(lines[j].rstrip("\r\n")) :]
            out.append(indent + _PLACEHOLDER.format(number) + ending)
        i = end
    return Masked("".join(out), saved)


def unmask(text: str, lines: dict[int, str]) -> str | None:
    """``text`` with each placeholder of ``lines`` put back; None unless each is found exactly once."""
    out: list[str] = []
    seen: set[int] = set()
    for line in split_lines(text):
        match = _PLACEHOLDER_LINE.match(line)
        number = int(match.group(2)) if match is not None else -1
        if number < 0 or number not in lines:
            out.append(line)
            continue
        if number in seen:
            return None
        seen.add(number)
        original = lines[number]
        body = original.rstrip("\r\n")
        out.append(body + (original[len(body) :] if match is not None and match.group(3) else ""))
    return "".join(out) if len(seen) == len(lines) else None


def is_placeholder(line: str) -> bool:
    """Whether ``line`` is one of :func:`mask`'s placeholders."""
    return _PLACEHOLDER_LINE.match(line) is not None
