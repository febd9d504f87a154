"""Whether a ``checkpoint_callback=`` value is Lightning's ``ModelCheckpoint``, and whether 1.5 could build it.

1.5.10 read ``Trainer(checkpoint_callback=<ModelCheckpoint>)`` as True and never used the object (rule
``removed_arguments`` writes ``enable_checkpointing=True``). A call 1.5.10's ModelCheckpoint refused
(``filepath=``, a TypeError) never ran there: such code was written for 1.2 or before, which trained with the object
passed in ``checkpoint_callback=``, so what 1.5 did with it says nothing of what it meant.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING

import libcst as cst

from codemods.frontends.python.qualnames import LEGACY, assigned_values
from codemods.plan.model import CheckpointObject
from legacy_api.keywords import RENAMED, signature_keywords
from legacy_api.renames import PL
from legacy_api.surface import surface

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext


def checkpoint_object(ctx: FileContext, node: cst.BaseExpression) -> CheckpointObject:
    """``ModelCheckpoint(...)`` built in ``node``, or a name every assignment of which in its scope builds one."""
    if isinstance(node, cst.Call):
        if not _is_checkpoint_class(ctx.qualified_name(node.func)):
            return None
        return _verdict([arg.keyword.value if arg.keyword is not None and not arg.star else None for arg in node.args])
    if not isinstance(node, cst.Name):
        return None
    values = assigned_values(node.value, ctx.scopes) or []
    calls = [value for value in values if isinstance(value, ast.Call)]
    if not values or len(calls) != len(values):
        return None
    if not all(_is_checkpoint_class(ctx.qualified_ast(call.func)) for call in calls):
        return None
    verdicts = {_verdict([*([None] * len(call.args)), *(k.arg for k in call.keywords)]) for call in calls}
    return "refused" if "refused" in verdicts else "renamed" if "renamed" in verdicts else "built"


def _verdict(keywords: Sequence[str | None]) -> CheckpointObject:
    """What 1.5.10's ModelCheckpoint made of ``keywords`` (None: an argument passed other than by name)."""
    taken = _taken_on_15()
    refused = [keyword for keyword in keywords if keyword not in taken]
    if not refused:
        return "built"
    return "renamed" if all(keyword is not None and (_CLASS, keyword) in RENAMED for keyword in refused) else "refused"


_CLASS = f"{PL}.callbacks.ModelCheckpoint"


@functools.cache
def _taken_on_15() -> frozenset[str]:
    """The keywords 1.5.10's ModelCheckpoint took (its recorded signature, parsed once)."""
    taken = signature_keywords(surface("1.5.10").signature(_CLASS + ".__init__"))
    return taken[0] if taken is not None else frozenset()


def _is_checkpoint_class(qualified: str | None) -> bool:
    return qualified is not None and qualified.split(".", 1)[0] in LEGACY and qualified.endswith(".ModelCheckpoint")
