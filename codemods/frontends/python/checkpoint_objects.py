"""Whether a ``checkpoint_callback=`` value is Lightning's ``ModelCheckpoint``, and whether 1.5 could build it.

1.5.10 read ``Trainer(checkpoint_callback=<ModelCheckpoint>)`` as True and never used the object (rule
``removed_arguments`` writes ``enable_checkpointing=True``). A call 1.5.10's ModelCheckpoint refused
(``filepath=``, a TypeError) never ran there: such code was written for 1.2 or before, which trained with the object
passed in ``checkpoint_callback=``, so what 1.5 did with it says nothing of what it meant.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

import libcst as cst

from codemods.frontends.python.qualnames import LEGACY, assigned_values
from legacy_api.keywords import signature_keywords
from legacy_api.renames import PL
from legacy_api.surface import surface

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

#: "built": a ModelCheckpoint 1.5.10 could build; "refused": one it could not; None: not (only) a ModelCheckpoint.
CheckpointObject = Literal["built", "refused"] | None


def checkpoint_object(ctx: FileContext, node: cst.BaseExpression) -> CheckpointObject:
    """``ModelCheckpoint(...)`` built in ``node``, or a name every assignment of which in its scope builds one."""
    if isinstance(node, cst.Call):
        if not _is_checkpoint_class(ctx.qualified_name(node.func)):
            return None
        keywords = [arg.keyword.value if arg.keyword is not None and not arg.star else None for arg in node.args]
        return "built" if _taken_on_15(keywords) else "refused"
    if not isinstance(node, cst.Name):
        return None
    values = assigned_values(node.value, ctx.scopes) or []
    calls = [value for value in values if isinstance(value, ast.Call)]
    if not values or len(calls) != len(values):
        return None
    if not all(_is_checkpoint_class(_ast_qualified(ctx, call.func)) for call in calls):
        return None
    taken = all(_taken_on_15([*([None] * len(call.args)), *(k.arg for k in call.keywords)]) for call in calls)
    return "built" if taken else "refused"


def _taken_on_15(keywords: Sequence[str | None]) -> bool:
    """Whether 1.5.10's ModelCheckpoint took each of ``keywords`` by name (None: an argument passed otherwise)."""
    taken = signature_keywords(surface("1.5.10").signature(f"{PL}.callbacks.ModelCheckpoint.__init__"))
    return taken is not None and all(keyword in taken[0] for keyword in keywords)


def _is_checkpoint_class(qualified: str | None) -> bool:
    return qualified is not None and qualified.split(".", 1)[0] in LEGACY and qualified.endswith(".ModelCheckpoint")


def _ast_qualified(ctx: FileContext, node: ast.expr) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    base = ctx.resolve(node.id)
    return None if base is None else ".".join([base, *reversed(parts)])
