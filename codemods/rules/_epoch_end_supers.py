"""``super().validation_epoch_end(outputs)`` inside a direct LightningModule's own ``validation_epoch_end``: a call of
LightningModule's hook, which in 1.4.9, 1.5.10 and 1.9.5 is a docstring and nothing else, so the call does nothing
(and returns None, which is what 1.x required an epoch-end hook to return). Rule ``epoch_end_hooks`` drops such
statements when it rewrites the hook: 2.x has no hook of that name to call. Only where the class's one base is
Lightning's LightningModule (else ``super()`` may reach a project class or a mixin), only as a whole statement (or a
``return`` of it as the hook's last statement) and only with plain names as arguments (evaluating them does
nothing either)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from codemods.rules._hook_classes import base_of

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext


def _super_call(node: cst.BaseExpression | None, hook: str) -> bool:
    """``super().<hook>(a, b)`` with plain names as arguments."""
    if not isinstance(node, cst.Call) or not all(
        arg.keyword is None and not arg.star and isinstance(arg.value, cst.Name) for arg in node.args
    ):
        return False
    func = node.func
    if not (isinstance(func, cst.Attribute) and func.attr.value == hook and isinstance(func.value, cst.Call)):
        return False
    inner = func.value
    return isinstance(inner.func, cst.Name) and inner.func.value == "super" and not inner.args


def _empty_call(statement: cst.BaseStatement, hook: str, last: bool) -> bool:
    if not (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1):
        return False
    small = statement.body[0]
    if isinstance(small, cst.Expr):
        return _super_call(small.value, hook)
    return last and isinstance(small, cst.Return) and _super_call(small.value, hook)


def _empty_calls(ctx: FileContext, cls: cst.ClassDef, node: cst.FunctionDef) -> list[bool]:
    """For each top-level statement of ``node``: whether it only calls LightningModule's own (empty) hook of the
    same name, where ``cls`` derives from LightningModule alone (no statement does otherwise)."""
    if not isinstance(node.body, cst.IndentedBlock):
        return []
    statements = node.body.body
    if len(cls.bases) != 1 or base_of(ctx, cls) != "LightningModule":
        return [False] * len(statements)
    last = len(statements) - 1
    return [_empty_call(statement, node.name.value, index == last) for index, statement in enumerate(statements)]


def without_empty_supers(ctx: FileContext, cls: cst.ClassDef, node: cst.FunctionDef) -> cst.FunctionDef:
    """``node`` without the statements :func:`dropped_calls` counts; ``node`` itself where there is none."""
    empty = _empty_calls(ctx, cls, node)
    if not any(empty):
        return node
    body = node.body
    assert isinstance(body, cst.IndentedBlock)
    kept: list[cst.BaseStatement] = []
    comments: list[cst.EmptyLine] = []  # a dropped statement's own comment lines stay, on the next statement
    for statement, drop in zip(body.body, empty, strict=True):
        assert isinstance(statement, cst.SimpleStatementLine | cst.BaseCompoundStatement)
        if drop:
            comments.extend(statement.leading_lines)
            continue
        kept.append(statement.with_changes(leading_lines=[*comments, *statement.leading_lines]))
        comments = []
    if not kept:
        kept = [cst.SimpleStatementLine([cst.Pass()], leading_lines=comments)]
    elif comments:
        body = body.with_changes(footer=[*comments, *body.footer])
    return node.with_changes(body=body.with_changes(body=kept))


def dropped_calls(ctx: FileContext, cls: cst.ClassDef, node: cst.FunctionDef) -> int:
    """How many top-level statements of ``node`` only call LightningModule's own (empty) hook of its name."""
    return sum(_empty_calls(ctx, cls, node))
