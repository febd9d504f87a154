"""Expressions where a value of None and a value of 0 come to the same: ``if cfg.trainer.get("gpus"):``.

``gpus: null`` and ``gpus: 0`` both chose the CPU in 1.5, and both become ``accelerator: cpu``, ``devices: 1``; a
read of the old key then becomes an expression that gives 0 for either. That keeps the program's meaning where the
read's value is only tested for truth (None and 0 are both falsy) or ordered against a number (``gpus > 1``: None
raised a TypeError there in 1.5, so no run that worked reads differently). ``codemods.rules._zero_safe`` finds the
same expressions in libcst, for the rule that rewrites such reads; the two must agree
(``codemods.project.moved_reads`` decides from the index which reads move). Standard library only.
"""

from __future__ import annotations

import ast

_ORDER = (ast.Lt, ast.Gt, ast.LtE, ast.GtE)


def zero_safe(tree: ast.AST) -> frozenset[int]:
    """ids of the expressions in ``tree`` where None and 0 come to the same: the test of an ``if``, ``while``,
    ``assert``, if-expression or comprehension ``if``, the operand of ``not`` and of ``bool()``, the operands of
    ``and``/``or`` and ``not`` within such a test (elsewhere ``a or b`` gives one of its operands' values, not a
    truth), and the operands of a comparison made only of ``<``, ``>``, ``<=``, ``>=``."""
    found: set[int] = set()

    def mark(expr: ast.expr) -> None:
        found.add(id(expr))
        if isinstance(expr, ast.BoolOp):
            for value in expr.values:
                mark(value)
        elif isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not):
            mark(expr.operand)

    for node in ast.walk(tree):
        if isinstance(node, ast.If | ast.While | ast.IfExp | ast.Assert):
            mark(node.test)
        elif isinstance(node, ast.comprehension):
            for condition in node.ifs:
                mark(condition)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            mark(node.operand)
        elif isinstance(node, ast.Compare) and all(isinstance(op, _ORDER) for op in node.ops):
            found.update(id(operand) for operand in (node.left, *node.comparators))
        elif _bool_call(node):
            mark(node.args[0])  # type: ignore[attr-defined]
    return frozenset(found)


def _bool_call(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "bool"
        and len(node.args) == 1
        and not node.keywords
    )
