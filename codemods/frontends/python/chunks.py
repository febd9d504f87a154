"""A module as a sequence of top-level statements ("chunks"), each parsed by libcst only when a rule needs it.

A chunk is the text from just after the previous top-level statement to the end of its own (so comments
and blank lines above a statement travel with it, as they do in libcst's tree). Chunks that mention nothing
a rule looks for are never parsed: their text is copied through byte for byte. Findings get their line and
column from the ``ast`` position of the enclosing statement plus libcst positions inside that statement.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from codemods.frontends.python.qualnames import Statement
from codemods.model import TODO_PREFIX

_LINE = re.compile(r"[^\n]*\n|[^\n]+$")
_BLANKS = re.compile(r"(?:[ \t]*\r?\n)*")


@dataclass
class Chunk:
    """Top-level statements ``first`` .. ``stop - 1`` (indices into the pre-order statement list)."""

    text: str
    first: int
    stop: int
    start_line: int
    end_line: int
    module: cst.Module | None = None
    changed: bool = False
    #: The blank lines above its statements, once a rewrite removed them all (``codemods.frontends.python.imports``
    #: gives them to what takes their place, so import groups stay apart).
    gap: str = ""

    def parse(self, leading: bool) -> cst.Module:
        """The chunk's libcst module; after the first chunk, the header becomes the statement's leading lines."""
        if self.module is None:
            module = cst.parse_module(self.text)
            # After the first chunk all of the header, in it the TODOs right above the first statement: so a
            # second run finds them where it writes them (libcst renders both in the same place).
            keep = _todos_start(module.header) if leading else 0
            if keep < len(module.header) and module.body:
                head = module.body[0]
                head = head.with_changes(leading_lines=[*module.header[keep:], *head.leading_lines])
                module = module.with_changes(header=module.header[:keep], body=[head, *module.body[1:]])
            self.module = module
        return self.module

    def set_module(self, module: cst.Module) -> None:
        self.module = module
        # A chunk whose statements were all removed keeps its comments but not the final line break libcst
        # adds to a module (the break belonged to the removed statement).
        code = module.code if module.body or module.header else ""
        if not code and self.text:
            self.gap = leading_blanks(self.text)
        if code != self.text:
            self.text, self.changed = code, True


def _todos_start(header: Sequence[cst.EmptyLine]) -> int:
    """Where the run of TODO comment lines that ends ``header`` starts."""
    keep = len(header)
    while keep and (comment := header[keep - 1].comment) is not None and comment.value.startswith(TODO_PREFIX):
        keep -= 1
    return keep


def leading_blanks(text: str) -> str:
    """The blank lines ``text`` starts with."""
    match = _BLANKS.match(text)
    return match.group(0) if match else ""


def split(source: str, statements: Sequence[Statement]) -> list[Chunk] | None:
    """Chunks of ``source``; None when its line breaks are not all ``\\n`` (then it is handled whole)."""
    if "\r" in source.replace("\r\n", ""):
        return None
    lines = _LINE.findall(source)
    tops = [index for index, statement in enumerate(statements) if statement.depth == 0]
    chunks: list[Chunk] = []
    previous_end = 0
    for position, index in enumerate(tops):
        statement = statements[index]
        stop = tops[position + 1] if position + 1 < len(tops) else len(statements)
        if chunks and statement.start <= chunks[-1].end_line:  # ``a = 1; b = 2``: one line, one chunk
            chunk = chunks[-1]
            chunk.stop, chunk.end_line = stop, max(chunk.end_line, statement.end)
            continue
        chunks.append(Chunk("", index, stop, previous_end + 1, statement.end))
        previous_end = statement.end
    for chunk in chunks:
        chunk.text = "".join(lines[chunk.start_line - 1 : chunk.end_line])
    tail = "".join(lines[chunks[-1].end_line :]) if chunks else source
    if tail:
        chunks.append(Chunk(tail, len(statements), len(statements), chunks[-1].end_line + 1 if chunks else 1, 0))
    return chunks


def whole(source: str, statements: Sequence[Statement]) -> list[Chunk]:
    """The whole module as one chunk (for sources :func:`split` declines)."""
    return [Chunk(source, 0, len(statements), 1, source.count("\n") + 1)]


def _stub(statement: cst.CSTNode) -> cst.CSTNode:
    """``statement`` without its leading lines and, where the header comes first, without its body."""
    stub = statement.with_changes(leading_lines=())
    body = cst.IndentedBlock([cst.SimpleStatementLine([cst.Pass()])])
    if isinstance(stub, cst.FunctionDef | cst.ClassDef | cst.With):
        return stub.with_changes(body=body)
    if isinstance(stub, cst.If | cst.For | cst.While):
        return stub.with_changes(body=body, orelse=None)
    return stub


class _Positions(MetadataWrapper):
    """A wrapper for :class:`PositionProvider` alone. Resolving it, libcst also visits the whole tree for the batchable
    providers asked for, even when there are none (as here): that visit was half the cost of :func:`locate`."""

    def visit_batched(
        self, visitors: Iterable[cst.BatchableCSTVisitor], before_visit: Any = None, after_leave: Any = None
    ) -> cst.CSTNode:
        batch = list(visitors)
        if not batch:
            return self.module
        return super().visit_batched(batch, before_visit, after_leave)


def locate(anchor: cst.CSTNode, line: int, column: int, nodes: Sequence[cst.CSTNode]) -> dict[int, tuple[int, int]]:
    """1-based (line, column) of each of ``nodes``, all inside the statement ``anchor`` at ``line``/``column``."""
    stub = _stub(anchor)
    wrapper = _Positions(cst.Module(body=[stub]), unsafe_skip_copy=True)  # type: ignore[list-item]
    positions = wrapper.resolve(PositionProvider)
    out: dict[int, tuple[int, int]] = {}
    for node in nodes:
        where = positions.get(node)
        if where is None:
            out[id(node)] = (line, column + 1)
        else:
            # Continuation lines are indented relative to the enclosing block, which the stub module lacks:
            # the statement's own column is that block's indentation, on every line of the statement.
            out[id(node)] = (line + where.start.line - 1, column + where.start.column + 1)
    return out
