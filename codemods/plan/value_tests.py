"""What a test written in the user's code (``args.gpus > 1``) gives where its operand holds a given value.

A flag's conditional (``strategy="ddp" if args.gpus > 1 else None``) or an enclosing ``if`` tests the very value
another flag is written from (``gpus=args.gpus``): for each value that flag may hold, the test then says which branch
runs with it, or that the run never got there (``None > 1`` raises). Only tests built from ``X``, ``not X`` and
``X <op> number`` (or ``number <op> X``) with ``and``/``or`` are read; X is pure (written twice, it gives the same
value).
"""

from __future__ import annotations

import ast
import functools
import operator
from collections.abc import Callable
from typing import Any

_COMPARE: dict[type[ast.cmpop], Callable[[Any, Any], Any]] = {
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
}


def evaluate_test(test: str, operand: str | None, lit: object) -> bool | str | None:
    """What ``test`` (as written) gives where ``operand`` (a flag's value, as written, pure) holds ``lit``: True or
    False, "raises" (``None > 1``: a TypeError), or None where the test is not built from ``X``, ``not X`` and
    ``X <op> k`` (``k <op> X``) of that operand and a number, joined by ``and``/``or``."""
    parsed = _parsed(test, operand or "")
    return None if parsed is None else _evaluate(*parsed, lit)


@functools.cache
def _parsed(test: str, operand: str) -> tuple[ast.expr, str] | None:
    """The test's tree and the operand's dump, parsed once: a rule tries every value of every combination."""
    try:
        return ast.parse(test, mode="eval").body, ast.dump(ast.parse(operand, mode="eval").body)
    except (SyntaxError, ValueError):
        return None


def _evaluate(tree: ast.expr, of: str, lit: object) -> bool | str | None:
    if isinstance(tree, ast.BoolOp):
        # Python's short circuit: ``args.gpus and args.gpus > 1`` never compares None
        for value in tree.values:
            gives = _evaluate(value, of, lit)
            if gives is None or gives == "raises":
                return gives
            if bool(gives) is not isinstance(tree.op, ast.And):
                return bool(gives)
        return isinstance(tree.op, ast.And)
    if isinstance(tree, ast.UnaryOp) and isinstance(tree.op, ast.Not):
        gives = _evaluate(tree.operand, of, lit)
        return gives if gives is None or gives == "raises" else not gives
    if ast.dump(tree) == of:
        return bool(lit)
    if not isinstance(tree, ast.Compare) or len(tree.ops) != 1 or type(tree.ops[0]) not in _COMPARE:
        return None
    left, right, compare = tree.left, tree.comparators[0], _COMPARE[type(tree.ops[0])]
    number = right if ast.dump(left) == of else left if ast.dump(right) == of else None
    if not isinstance(number, ast.Constant) or type(number.value) not in (int, float):
        return None
    try:
        return bool(compare(lit, number.value) if number is right else compare(number.value, lit))
    except TypeError:
        return "raises"
