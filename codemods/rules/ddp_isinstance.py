"""``isinstance(strategy, DDPPlugin)`` at targets 2.0 and later: reported, since the check now also holds for spawn.

In 1.5 ``DDPSpawnPlugin`` was a class of its own, not a ``DDPPlugin`` (checked in 1.5.10), and so was 1.6-1.9's
``DDPSpawnStrategy``. 2.0 folded it into ``DDPStrategy``: ``strategy="ddp_spawn"`` builds a ``DDPStrategy`` whose
launcher spawns (2.6.6: ``isinstance(trainer.strategy, DDPStrategy)`` is True there, ``_start_method == "spawn"``).
The rename rules turn ``DDPPlugin`` into ``DDPStrategy`` wherever it is named, so an ``isinstance``/``issubclass``
check that was False for ``ddp_spawn`` in 1.5 is True at the target. Lightning changed that on purpose, and no public
2.x spelling keeps the old answer, so the check is rewritten like any other use of the name and reported (the
selection policy's rule for what a release changed deliberately), never silently.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.plan.rule import Rule
from legacy_api.renames import PL, RENAMES

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

ID = "ddp_isinstance"
#: The 1.5 and 1.6-1.9 spellings of the DDP strategy class: the renames table's rows onto DDPStrategy, old and new
#: names (DDPSpawnStrategy's row, which needs start_method="spawn", is another class in 1.6-1.9).
_DDP = frozenset(
    name
    for row in RENAMES
    if row.kind == "class" and PL in row.roots and not row.preset and (row.new or "").endswith(".DDPStrategy")
    for name in (f"{PL}.{row.old}", f"{PL}.{row.new}")
)
_CHECKS = frozenset({"isinstance", "issubclass"})


def _classes(node: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The class argument of a check: one class, or the elements of a tuple of them."""
    if isinstance(node, cst.Tuple):
        return [element.value for element in node.elements]
    return [node]


def leave_call(ctx: FileContext, original: cst.Call, updated: cst.Call) -> Any:
    func = original.func
    if ctx.target < (2, 0) or not isinstance(func, cst.Name) or func.value not in _CHECKS or len(original.args) != 2:
        return updated
    for cls in _classes(original.args[1].value):
        name = ctx.qualified_name(cls)
        if name in _DDP:
            ctx.report(
                ID,
                f"{func.value}(..., {ctx.code(cls)}): from 2.0 DDPStrategy is also the strategy of ddp_spawn "
                '(start_method="spawn"; before 2.0 DDPSpawnPlugin and DDPSpawnStrategy were classes of their own), so '
                "this check now holds for spawned DDP too",
                original,
            )
            break
    return updated


RULE = Rule(
    id=ID,
    description="isinstance/issubclass checks against DDPPlugin are reported at 2.0 and later (DDPStrategy covers "
    "ddp_spawn there)",
    deprecated_in="2.0",
    handlers={"Call": leave_call},
    tokens=("DDPPlugin", "DDPStrategy"),
)
