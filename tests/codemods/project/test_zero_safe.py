"""Where None and 0 come to the same (a truth test, an ordering): the index (``ast``) and the rule (libcst) must
agree, since the index decides which ``cfg.trainer.get("gpus")`` reads move and the rule rewrites exactly those."""

from __future__ import annotations

import ast
from types import SimpleNamespace

import libcst as cst
import pytest

from codemods.project.zero_safe import zero_safe
from codemods.rules import _zero_safe

GET = 'cfg.trainer.get("gpus")'

ROWS = [
    ("if-test", f"if {GET}:\n    pass\n", True),
    ("while-test", f"while {GET}:\n    break\n", True),
    ("if-expression-test", f"x = 1 if {GET} else 2\n", True),
    ("assert-test", f"assert {GET}\n", True),
    ("comprehension-if", f"xs = [x for x in y if {GET}]\n", True),
    ("not-operand", f"x = not {GET}\n", True),
    ("bool-argument", f"x = bool({GET})\n", True),
    ("and-operand-inside-a-test", f"if a and {GET}:\n    pass\n", True),
    ("or-operand-under-not-inside-a-test", f"if not (a or {GET}):\n    pass\n", True),
    ("and-operand-as-a-value-is-its-value", f"x = a and {GET}\n", False),
    ("ordered-against-a-number", f"if {GET} > 1:\n    pass\n", True),
    ("ordered-on-the-right-in-a-chain", f"x = 0 < {GET} <= 8\n", True),
    ("equality-is-a-value", f"if {GET} == 0:\n    pass\n", False),
    ("ordering-mixed-with-equality-is-a-value", f"x = 1 < {GET} == 2\n", False),
    ("is-none-under-not-is-a-value", f"if not {GET} is None:\n    pass\n", False),
    ("if-expression-branch-is-a-value", f"x = {GET} if a else 0\n", False),
    ("argument-is-a-value", f"f({GET})\n", False),
    ("bool-with-a-keyword-is-not-bool", f"x = bool({GET}, k=1)\n", False),
]


def _ast_side(source: str) -> bool:
    tree = ast.parse(source)
    found = zero_safe(tree)
    calls = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and ast.unparse(node) == ast.unparse(ast.parse(GET))
    ]
    return any(id(call) in found for call in calls)


class _Marks(cst.CSTVisitor):
    def __init__(self) -> None:
        self.ctx = SimpleNamespace(zero_safe=set())
        self.hooks = {**_zero_safe.HANDLERS, "visit_Call": _zero_safe.visit_call}
        self.calls: list[cst.Call] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        hook = self.hooks.get(f"visit_{type(node).__name__}")
        if hook is not None:
            hook(self.ctx, node, node)
        if isinstance(node, cst.Call) and cst.Module([]).code_for_node(node) == GET:
            self.calls.append(node)
        return True


def _cst_side(source: str) -> bool:
    marks = _Marks()
    cst.parse_module(source).visit(marks)
    return any(id(call) in marks.ctx.zero_safe for call in marks.calls)


@pytest.mark.parametrize(("source", "tested"), [row[1:] for row in ROWS], ids=[row[0] for row in ROWS])
def test_both_sides_find_the_same_places(source: str, tested: bool) -> None:
    assert _ast_side(source) is tested
    assert _cst_side(source) is tested
