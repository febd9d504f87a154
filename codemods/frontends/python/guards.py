"""The ``if`` tests a flag's value is written under: ``if args.gpus > 1:`` over ``Trainer(gpus=args.gpus)``.

Each enclosing ``if`` gives its test and the branch the flags are in (its body, or its ``else``/``elif``). A test
is kept only where nothing in that ``if`` binds the value's name again (``args = ...``, ``args.gpus = 0``, a loop
target): between the test and the call, and after it in a loop, the value is then the one tested. What a kept test
says of the value is read by ``codemods.plan.value_tests``; this module only finds them.
"""

from __future__ import annotations

import ast
import itertools
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import libcst as cst

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext


def enclosing_tests(ctx: FileContext, operand: cst.BaseExpression) -> tuple[tuple[str, bool], ...]:
    """(test as written, whether the flags are in its body) for each ``if`` around the statement being left."""
    try:
        path = _path(ast.parse(ctx.code(operand).strip(), mode="eval").body)
    except SyntaxError:
        return ()
    if path is None:
        return ()
    found: list[tuple[str, bool]] = []
    chain = list(ctx.statements)
    for parent, child in itertools.pairwise(chain):
        if not isinstance(parent, cst.If):
            continue
        branch = _branch(parent, child)
        if branch is None:
            continue
        block: Sequence[Any] = parent.body.body if branch else _else_block(parent)
        if _binds(ctx, block, path):
            continue
        found.append((ctx.code(parent.test).strip(), branch))
    return tuple(found)


def _branch(parent: cst.If, child: Any) -> bool | None:
    if any(child is statement for statement in parent.body.body):
        return True
    orelse = parent.orelse
    if orelse is child or (isinstance(orelse, cst.Else) and any(child is s for s in orelse.body.body)):
        return False  # ``elif`` (the child is that ``If``) or ``else``
    return None


def _else_block(parent: cst.If) -> Sequence[Any]:
    orelse = parent.orelse
    if isinstance(orelse, cst.Else):
        return list(orelse.body.body)
    return [orelse] if orelse is not None else []


def _path(node: ast.expr) -> list[str] | None:
    """``args.gpus`` -> ["args", ".gpus"], ``cfg["trainer"]`` -> ["cfg", "['trainer']"]; None for anything else (an
    item with a computed key stands for any item: ["cfg", "[*]"])."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute | ast.Subscript | ast.Starred):
        if isinstance(node, ast.Attribute):
            parts.append(f".{node.attr}")
        elif isinstance(node, ast.Subscript):
            parts.append(f"[{node.slice.value!r}]" if isinstance(node.slice, ast.Constant) else "[*]")
        node = node.value
    return [node.id, *reversed(parts)] if isinstance(node, ast.Name) else None


def _binds(ctx: FileContext, block: Sequence[Any], path: list[str]) -> bool:
    """Whether a statement of ``block`` (nested ones too) stores into the value at ``path``, into what holds it or
    into a part of it (``args = ...``, ``args.gpus = 0``, ``del cfg["trainer"]``; not ``args.seed = 1``)."""
    for statement in block:
        try:
            tree = ast.parse(textwrap.dedent(ctx.code(statement)))
        except SyntaxError:
            return True
        for node in ast.walk(tree):
            if isinstance(node, ast.Global | ast.Nonlocal) and path[0] in node.names:
                return True
            if isinstance(getattr(node, "ctx", None), ast.Store | ast.Del) and _overlaps(_path(node), path):  # type: ignore[arg-type]
                return True
    return False


def _overlaps(stored: list[str] | None, path: list[str]) -> bool:
    if stored is None or stored[0] != path[0]:
        return False
    for mine, theirs in zip(stored[1:], path[1:], strict=False):
        if mine != theirs and "[*]" not in (mine, theirs):
            return False  # a sibling: args.seed next to args.gpus
    return True
