"""Where each cell's source is in a notebook's JSON text, read without re-serialising the notebook.

The file is parsed once by ``json`` for its structure, and once more by hand for the spans of the sources'
string literals, so that an edit can replace exactly the literals of a changed source.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

_WHITESPACE = re.compile(r"[ \t\n\r]*")
#: A source's lines, as ``codemods.frontends.notebooks.ipython.split_lines`` splits them.
_LINES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")
_DECODER = json.JSONDecoder()


class NotebookError(ValueError):
    """The text is no notebook this tool can read (not JSON, or not nbformat 4)."""


@dataclass(frozen=True)
class JsonString:
    """One JSON string of the file: ``text[start:end]`` is its literal, quotes included."""

    start: int
    end: int
    value: str


@dataclass(frozen=True)
class Source:
    """A cell's ``"source"`` value: one string, or a list of strings (``parts``), at ``text[start:end]``."""

    cell: int  # 1-based, every cell counted
    code: bool
    start: int
    end: int
    listed: bool
    parts: tuple[JsonString, ...]

    @property
    def text(self) -> str:
        return "".join(part.value for part in self.parts)


# --- reading: where each source is ------------------------------------------------------------------------------
def _skip(text: str, i: int) -> int:
    match = _WHITESPACE.match(text, i)
    assert match is not None
    return match.end()


def _string(text: str, i: int) -> JsonString:
    if text[i : i + 1] != '"':
        raise NotebookError(f"a string expected at offset {i}")
    value, end = json.decoder.scanstring(text, i + 1)  # type: ignore[attr-defined]
    return JsonString(i, end, value)


def _members(text: str, i: int) -> list[tuple[str, int, int]]:
    """``(key, value start, value end)`` for each member of the object at ``text[i]``."""
    if text[i : i + 1] != "{":
        raise NotebookError(f"an object expected at offset {i}")
    rows: list[tuple[str, int, int]] = []
    i = _skip(text, i + 1)
    while text[i : i + 1] != "}":
        key = _string(text, i)
        i = _skip(text, key.end)
        i = _skip(text, i + 1)  # the ':'
        _, end = _DECODER.raw_decode(text, i)
        rows.append((key.value, i, end))
        i = _skip(text, end)
        if text[i : i + 1] == ",":
            i = _skip(text, i + 1)
    return rows


def _array(text: str, i: int, end: int) -> list[tuple[int, int]]:
    """The spans of the elements of the array at ``text[i:end]``."""
    spans = []
    i = _skip(text, i + 1)
    while i < end - 1:
        _, stop = _DECODER.raw_decode(text, i)
        spans.append((i, stop))
        i = _skip(text, stop)
        i = _skip(text, i + 1) if text[i : i + 1] == "," else i
    return spans


def read(text: str) -> tuple[dict[str, object], list[Source]]:
    """The notebook and where its cells' sources are; :class:`NotebookError` when it is none."""
    try:
        notebook = json.loads(text)
    except ValueError as exc:
        raise NotebookError(f"not valid JSON: {exc}") from exc
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        raise NotebookError("no list of cells (nbformat 4 keeps them under 'cells')")
    # The last "cells" member counts, as for json.loads.
    cells = [(s, e) for key, s, e in _members(text, _skip(text, 0)) if key == "cells"][-1]
    sources = []
    for number, (cell_start, _) in enumerate(_array(text, *cells), 1):
        if text[cell_start] != "{":
            continue
        members = {key: (s, e) for key, s, e in _members(text, cell_start)}
        if "source" not in members:
            continue
        kind = json.loads(text[slice(*members["cell_type"])]) if "cell_type" in members else None
        s, e = members["source"]
        if text[s] == '"':
            parts: tuple[JsonString, ...] = (_string(text, s),)
        elif text[s] == "[":
            parts = tuple(_string(text, a) for a, _ in _array(text, s, e))
        else:
            continue
        sources.append(Source(number, kind == "code", s, e, text[s] == "[", parts))
    return notebook, sources


# --- positions: where a source's text is in the file ------------------------------------------------------------
def _raw_offset(text: str, part: JsonString, index: int) -> int:
    """The file offset of the ``index``-th character of ``part``'s value (escapes are several characters)."""
    i, stop = part.start + 1, part.end - 1
    for _ in range(index):
        if i >= stop:
            break
        if text[i] != "\\":
            i += 1
        elif text[i + 1] != "u":
            i += 2
        else:
            pair = 0xD800 <= int(text[i + 2 : i + 6], 16) < 0xDC00 and text[i + 6 : i + 8] == "\\u"
            i += 12 if pair else 6
    return i


def position(text: str, source: Source, line: int, column: int) -> tuple[int, int]:
    """The file line and column of ``source``'s line ``line``, column ``column`` (both 1-based)."""
    lines = _LINES.findall(source.text) or [""]
    line = min(max(line, 1), len(lines))
    offset = sum(len(item) for item in lines[: line - 1]) + min(max(column - 1, 0), len(lines[line - 1]))
    if not source.parts:
        at = source.start
    else:
        for part in source.parts:
            if offset < len(part.value) or part is source.parts[-1]:
                break
            offset -= len(part.value)
        at = _raw_offset(text, part, offset)
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1


def language(notebook: dict[str, object]) -> str:
    metadata = notebook.get("metadata")
    if not isinstance(metadata, dict):
        return "python"
    for key, field in (("kernelspec", "language"), ("language_info", "name")):
        value = metadata.get(key)
        if isinstance(value, dict) and isinstance(value.get(field), str):
            return str(value[field]).lower()
    return "python"
