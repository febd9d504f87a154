"""``torch._six`` (imports and uses) gets a TODO at targets whose Lightning needs torch >= 2.0, which removed it.

``torch._six`` was torch's Python 2/3 layer; torch 2.0 removed it (pytorch#94709, its release notes), and Lightning
2.3 and later require torch >= 2.0 (the ``Requires-Dist`` of the recorded 2.3.3 … 2.6.6 packages). 1.x projects
imported ``string_classes``, ``int_classes``, ``container_abcs``, ``inf`` and ``nan`` from it (lightning-bolts'
data modules): their first import fails on the target's stack. Not a Lightning API, but the upgrade removes it, so
the TODO names what each name was; nothing is rewritten (``string_classes`` was ``(str, bytes)``, a tuple a
project may have used as a type too).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.plan.rule import Rule

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

ID = "torch_six"
#: The first Lightning release whose torch requirement has no ``torch._six``.
_FROM = (2, 3)
#: What each name of torch 1.x's ``torch/_six.py`` was.
_WAS = {
    "string_classes": "(str, bytes)",
    "int_classes": "int",
    "container_abcs": "collections.abc",
    "inf": "torch.inf (or math.inf)",
    "nan": "torch.nan (or math.nan)",
    "PY3": "True",
    "PY37": "True",
}


def _message(ctx: FileContext, names: list[str]) -> str:
    said = "; ".join(f"{name} was {_WAS[name]}" for name in names if name in _WAS)
    return f"torch._six is gone in torch 2.0, which Lightning {ctx.surface.release} requires: " + (
        said or "use the Python 3 builtins it aliased"
    )


def leave_import_from(ctx: FileContext, original: cst.ImportFrom, updated: cst.ImportFrom) -> Any:
    if ctx.target < _FROM or original.relative or original.module is None:
        return updated
    if ctx.code(original.module) != "torch._six":
        return updated
    names = [] if isinstance(original.names, cst.ImportStar) else [ctx.code(alias.name) for alias in original.names]
    ctx.todo(ID, _message(ctx, names), original)
    return updated


def leave_attribute(ctx: FileContext, original: cst.Attribute, updated: cst.Attribute) -> Any:
    """``torch._six.string_classes``: a use through the module."""
    if ctx.target < _FROM or ctx.in_import:
        return updated
    holder = original.value
    if isinstance(holder, cst.Attribute) and holder.attr.value == "_six" and ctx.code(holder) == "torch._six":
        ctx.todo(ID, _message(ctx, [original.attr.value]), original)
    return updated


def _visit() -> re.Pattern[str]:
    return re.compile(r"torch\._six\b")


RULE = Rule(
    id=ID,
    description="torch._six (removed in torch 2.0, which Lightning 2.3+ requires) is flagged with what each name was",
    deprecated_in="2.3",
    handlers={"ImportFrom": leave_import_from, "Attribute": leave_attribute},
    tokens=("torch._six",),
    visit=_visit,
)
