"""The libcst side of ``codemods.project.zero_safe``: marks, while the rules' pass visits a file, the expressions
where None and 0 come to the same (``if cfg.trainer.get("gpus"):``, ``cfg.trainer.get("gpus") > 1``), in
``FileContext.zero_safe``. Both sides must find the same expressions: the project index decides from its own which
reads move."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import libcst as cst

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

_ORDER = (cst.LessThan, cst.GreaterThan, cst.LessThanEqual, cst.GreaterThanEqual)


def _mark(ctx: FileContext, expr: cst.BaseExpression) -> None:
    ctx.zero_safe.add(id(expr))
    if isinstance(expr, cst.BooleanOperation):
        _mark(ctx, expr.left)
        _mark(ctx, expr.right)
    elif isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Not):
        _mark(ctx, expr.expression)


def visit_test(ctx: FileContext, node: cst.If | cst.While | cst.IfExp | cst.Assert | cst.CompIf, _: Any) -> None:
    _mark(ctx, node.test)


def visit_unary(ctx: FileContext, node: cst.UnaryOperation, _: Any) -> None:
    if isinstance(node.operator, cst.Not):
        _mark(ctx, node.expression)


def visit_comparison(ctx: FileContext, node: cst.Comparison, _: Any) -> None:
    if all(isinstance(target.operator, _ORDER) for target in node.comparisons):
        ctx.zero_safe.update(id(operand) for operand in (node.left, *(t.comparator for t in node.comparisons)))


def visit_call(ctx: FileContext, node: cst.Call, _: Any) -> None:
    func = node.func
    if isinstance(func, cst.Name) and func.value == "bool" and len(node.args) == 1:
        arg = node.args[0]
        if arg.keyword is None and not arg.star:
            _mark(ctx, arg.value)


#: The visit hooks a rule adds to its own to have ``FileContext.zero_safe`` filled before it leaves a node (a rule
#: with a ``visit_Call`` of its own calls :func:`visit_call` from it).
HANDLERS: dict[str, Any] = {
    "visit_If": visit_test,
    "visit_While": visit_test,
    "visit_IfExp": visit_test,
    "visit_Assert": visit_test,
    "visit_CompIf": visit_test,
    "visit_UnaryOperation": visit_unary,
    "visit_Comparison": visit_comparison,
}
