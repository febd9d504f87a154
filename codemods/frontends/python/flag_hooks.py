"""The libcst hooks of the Trainer-flag front end: calls and dicts (``flags``), Trainer sections of configs built in
Python (``config_dicts``) and subscript stores (``stores``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.frontends.python import config_dicts, flags, store_statements, stores
from codemods.plan.rule import Handler

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext


def leave_call(ctx: FileContext, original: cst.Call, updated: cst.Call) -> Any:
    """``d.get("gpus")`` on a Trainer dict follows its key; a Trainer-like call is planned and rebuilt."""
    if ctx.trainer_dicts and isinstance(original.func, cst.Attribute):
        updated = stores.keyed_call(ctx, original, updated)
    updated = config_dicts.leave_call(ctx, original, updated)
    return flags.leave_call(ctx, original, updated)


HANDLERS: dict[str, Handler] = {
    "Call": leave_call,
    "Assign": flags.leave_assign,
    "SimpleStatementLine": store_statements.leave_statement,
    "IndentedBlock": store_statements.leave_block,
    "Subscript": stores.leave_subscript,
    "Comparison": stores.leave_comparison,
}
