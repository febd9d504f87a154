"""Chunks of code (a notebook's cells, a document's code blocks) joined into one Python module, and split back.

The rules see one module, so that what they decide from the whole file (an import in the first cell resolving a
name in the last) holds; a separator line between chunks tells where each one's text went.
"""

from __future__ import annotations

import ast
import difflib
import re
from bisect import bisect_right
from collections.abc import Sequence
from typing import Protocol, TypeVar

from codemods.frontends.notebooks.ipython import is_placeholder, split_lines

_SEPARATOR = "__migrate_trainer_cell_{}__\n"
_SEPARATOR_LINE = re.compile(r"^(?:import )?__migrate_trainer_cell_(\d+)__\r?\n?$")


class Chunk(Protocol):
    """A piece of code migrated with the others of its file as one module: a notebook cell, a doc's code block."""

    first_line: int  # in the module, 1-based; set by :func:`module`

    @property
    def number(self) -> int:
        """Its separator's number: distinct and ascending over the file's chunks."""

    @property
    def masked(self) -> str:
        """Its Python text."""

    @property
    def imports_first(self) -> bool:
        """Whether its first statement is an import."""


ChunkT = TypeVar("ChunkT", bound=Chunk)


def module(cells: Sequence[Chunk]) -> str:
    """The chunks as one module, a separator line before each but the first (see the module docstring)."""
    parts: list[str] = []
    line = 1
    for index, cell in enumerate(cells):
        if index:  # an import before a cell that starts with imports: the leading import block runs on
            parts.append(("import " if cell.imports_first else "") + _SEPARATOR.format(cell.number))
            line += 1
        cell.first_line = line
        text = cell.masked if cell.masked.endswith(("\n", "\r")) or not cell.masked else cell.masked + "\n"
        parts.append(text)
        line += len(split_lines(text))
    return "".join(parts)


def split_module(text: str, cells: Sequence[Chunk]) -> list[str] | None:
    """The rewritten module cut back into the cells' texts; None when a separator moved or went away."""
    texts: list[list[str]] = [[]]
    expected = [cell.number for cell in cells[1:]]
    for line in split_lines(text):
        match = _SEPARATOR_LINE.match(line)
        if match is not None and len(texts) <= len(expected) and int(match.group(1)) == expected[len(texts) - 1]:
            texts.append([])
        else:
            texts[-1].append(line)
    return ["".join(lines) for lines in texts] if len(texts) == len(cells) else None


def is_placeholder_node(node: ast.stmt) -> bool:
    return isinstance(node, ast.Import) and node.names[0].name.startswith("__migrate_trainer_")


def hoist_imports(cells: Sequence[Chunk], texts: list[str]) -> None:
    """Imports the rules put at the top of a first cell that starts with code go to the first cell that
    starts with imports instead, after its leading imports (where a script's import block would be)."""
    target = next((k for k, cell in enumerate(cells) if cell.imports_first), 0)
    if target == 0:
        return
    old, new = split_lines(module(cells[:1])), split_lines(texts[0])
    changes = [op for op in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes() if op[0] != "equal"]
    if not changes or changes[0][0] != "insert":
        return
    _, at, _, start, stop = changes[0]
    if any(line.strip() and not is_placeholder(line) and not line.lstrip().startswith("#") for line in old[:at]):
        return  # inserted below code: not the import block's place
    imports = [line for line in new[start:stop] if line.strip()]
    try:
        body = ast.parse("".join(imports)).body
    except SyntaxError:
        return
    if not body or not all(isinstance(node, ast.Import | ast.ImportFrom) for node in body):
        return
    texts[0] = "".join(new[:start] + new[stop:])
    lines = split_lines(texts[target])
    end = 0
    for node in ast.parse(texts[target]).body:
        if not isinstance(node, ast.Import | ast.ImportFrom):
            break
        end = node.end_lineno or end
    texts[target] = "".join(lines[:end] + [line for line in imports if line not in lines] + lines[end:])


def chunk_at(cells: Sequence[ChunkT], line: int) -> tuple[ChunkT, int]:
    """The chunk holding ``line`` of the module, and the line's number in it (both 1-based)."""
    index = max(0, bisect_right([cell.first_line for cell in cells], line) - 1)
    return cells[index], max(1, line - cells[index].first_line + 1)
