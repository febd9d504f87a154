"""The GPU properties of 1.5's Trainer that rule ``trainer_properties`` rewrites to the expression reading their 1.5
value at the target (``trainer.num_gpus`` -> ``trainer.num_devices if isinstance(trainer.accelerator,
CUDAAccelerator) else 0``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import libcst as cst

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext
    from legacy_api.renames import TrainerProperty


def cuda_class(ctx: FileContext) -> str:
    """The GPU accelerator class at the target: ``GPUAccelerator`` became ``CUDAAccelerator`` in 1.7."""
    return "CUDAAccelerator" if ctx.target >= (1, 7) else "GPUAccelerator"


def plain(node: cst.BaseExpression) -> bool:
    """``trainer`` / ``self.trainer``: read twice by the rewrite, with nothing run in between."""
    while isinstance(node, cst.Attribute):
        node = node.value
    return isinstance(node, cst.Name)


def on_the_gpu(
    ctx: FileContext, rule: str, prop: TrainerProperty, original: cst.Attribute, receiver: cst.BaseExpression
) -> Any:
    """``trainer.num_gpus`` -> ``trainer.num_devices if isinstance(trainer.accelerator, CUDAAccelerator) else 0``,
    parenthesized unless it is a whole statement's value."""
    cuda = cuda_class(ctx)
    expression = cst.parse_expression(prop.replacement(ctx.code(receiver), cuda))
    line = ctx.statements[-1] if ctx.statements else None
    small = line.body[0] if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 else None
    whole = isinstance(small, cst.Assign | cst.Return | cst.Expr) and small.value is original
    if not whole:
        expression = expression.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        ctx.claimed.add(id(expression))  # :func:`unwrap` drops the parentheses where its parent needs none
    ctx.add_import("pytorch_lightning.accelerators", cuda)
    ctx.fix(rule, f"Trainer.{prop.old} -> {prop.replacement('trainer', cuda)} (1.5's value: {prop.note})", original)
    return expression


def unwrap(ctx: FileContext, node: cst.BaseExpression) -> cst.BaseExpression:
    """One of :func:`on_the_gpu`'s parenthesized expressions as a call's argument or an f-string's field, which need
    no parentheses; any other node as it is."""
    if id(node) in ctx.claimed and isinstance(node, cst.IfExp) and node.lpar:
        return node.with_changes(lpar=[], rpar=[])
    return node


def leave_call(ctx: FileContext, original: cst.Call, updated: cst.Call) -> Any:
    if not any(id(arg.value) in ctx.claimed for arg in updated.args):
        return updated
    return updated.with_changes(args=[arg.with_changes(value=unwrap(ctx, arg.value)) for arg in updated.args])


def leave_formatted(ctx: FileContext, original: cst.FormattedStringExpression, updated: Any) -> Any:
    if id(updated.expression) not in ctx.claimed:
        return updated
    return updated.with_changes(expression=unwrap(ctx, updated.expression))
