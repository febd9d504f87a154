"""``Callback.on_keyboard_interrupt(self, trainer, pl_module)`` (deprecated in 1.5, removed in 1.7) as the
``on_exception`` hook that replaced it, run for a ``KeyboardInterrupt`` only.

1.5.10's ``Trainer._call_and_handle_interrupt`` called every callback's ``on_keyboard_interrupt`` once on the first
``KeyboardInterrupt`` of a ``fit``/``validate``/``test``/``predict``, then their ``on_exception(exception)``;
2.6.6's calls ``on_exception`` once (``trainer/call.py``, ``_interrupt``), then exits. So::

    def on_keyboard_interrupt(self, trainer, pl_module):
        body

becomes::

    def on_exception(self, trainer, pl_module, exception):
        if not isinstance(exception, KeyboardInterrupt):
            return
        body

where the class defines no ``on_exception`` of its own, the signature is exactly ``(self, trainer, pl_module)`` (any
names), the body does not use the new parameter's name, and ``KeyboardInterrupt`` is the builtin there. Used by rule
``removed_hooks``, which leaves its TODO elsewhere.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from codemods.rules._epoch_end_plan import methods, reads

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

HOOK = "on_keyboard_interrupt"
_SUCCESSOR = "on_exception"
_NAMES = ("exception", "error", "exc")


def rewrite(ctx: FileContext, owner: cst.ClassDef, node: cst.FunctionDef) -> cst.FunctionDef | None:
    """``node`` as ``on_exception`` (see the module docstring), or None where that would not be exact."""
    params = node.params
    positional = list(params.params)
    if (
        node.name.value != HOOK
        or node.asynchronous is not None
        or node.decorators
        or len(positional) != 3
        or params.posonly_params
        or params.kwonly_params
        or params.star_arg not in (None, cst.MaybeSentinel.DEFAULT)
        or params.star_kwarg is not None
        or any(param.default is not None for param in positional)
        or _SUCCESSOR in methods(owner)
        or ctx.resolve("KeyboardInterrupt") not in (None, "KeyboardInterrupt", "builtins.KeyboardInterrupt")
        or ctx.resolve("isinstance") not in (None, "isinstance", "builtins.isinstance")
    ):
        return None
    taken = {param.name.value for param in positional}
    name = next((n for n in _NAMES if n not in taken and not reads(node, n)), None)
    if name is None or not isinstance(node.body, cst.IndentedBlock):
        return None
    new_param = cst.Param(cst.Name(name))
    last = positional[-1].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
    # an early return, so that the body's own lines stay as they were
    guard = cst.parse_statement(f"if not isinstance({name}, KeyboardInterrupt):\n    return\n")
    statements = list(node.body.body)
    at = 1 if statements and _docstring(statements[0]) else 0  # a docstring stays first
    return node.with_changes(
        name=cst.Name(_SUCCESSOR),
        params=params.with_changes(params=[*positional[:-1], last, new_param]),
        body=node.body.with_changes(body=[*statements[:at], guard, *statements[at:]]),
    )


def _docstring(statement: cst.BaseStatement) -> bool:
    return (
        isinstance(statement, cst.SimpleStatementLine)
        and len(statement.body) == 1
        and isinstance(statement.body[0], cst.Expr)
        and isinstance(statement.body[0].value, cst.SimpleString | cst.ConcatenatedString)
    )
