"""A member of a LightningModule, LightningDataModule, callback, logger, profiler or loop that 1.x code uses and the
target lacks (or no longer lets you set, or returns in another shape): one TODO on its line, naming what replaced it.

``self.summarize()``, ``dm.has_setup_fit``, ``logger.close()`` or ``trainer.fit_loop.replace(...)`` run on 1.5 and
raise AttributeError on 2.x when the line runs; ``self.truncated_bptt_steps = 5`` or ``trainer.fit_loop.max_steps =
10`` fail or do nothing; ``trainer.num_val_batches`` is a list per dataloader since 2.0, not a number. The rows and
their replacements are ``legacy_api.removed_members``; whether the target lacks a member, the recorded surfaces. What
the object is comes from the code (``codemods.rules._member_receivers``): a Lightning class's instance, ``self`` in a
subclass (except for names the subclass defines itself), a Trainer and the loops it holds. Never a rewrite. Rule
``removed_attributes`` answers for reads of the Trainer's and its strategies' attributes; this rule's Trainer rows are
stores and changed values only.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.plan.resolve import resolve
from codemods.plan.rule import Rule
from codemods.rules._attribute_receivers import defined_in_class, names_defined
from codemods.rules._member_receivers import class_of, classes_made, instance_class
from codemods.rules._trainer_kind import enclosing_class
from legacy_api.removed_members import Member, by_attribute, derives, removed_in
from legacy_api.renames import version_tuple

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

ID = "removed_members"


@functools.cache
def _visit() -> re.Pattern[str]:
    return re.compile(r"\.\s*(?:" + "|".join(sorted(map(re.escape, by_attribute()))) + r")\b")


def _stored(ctx: FileContext, node: cst.Attribute) -> bool:
    """``obj.x = 1`` / ``obj.x += 1``: the target of an assignment."""
    line = ctx.statements[-1] if ctx.statements else None
    if not isinstance(line, cst.SimpleStatementLine):
        return False
    for small in line.body:
        if isinstance(small, cst.Assign) and any(target.target is node for target in small.targets):
            return True
        if isinstance(small, cst.AnnAssign | cst.AugAssign) and small.target is node:
            return True
    return False


def _lacks(ctx: FileContext, cls: str, row: Member) -> bool:
    """Whether the target's class (``cls`` as written, or what the renames make of it) lacks ``row.attr``."""
    target = ctx.surface
    for path in dict.fromkeys((cls, row.owner)):
        found = resolve(path, ctx.target)
        for name in (path, found.new if found is not None else None):
            members = target.members(name) if name else None
            if members is not None and row.attr in members:
                return False
    return True


def _applies(ctx: FileContext, cls: str, row: Member, stored: bool) -> bool:
    if not derives(cls, row.owner):
        return False
    if row.use == "gone":
        return (row.effect or not stored) and _lacks(ctx, cls, row)
    if (row.use == "store") != stored:
        return False
    return version_tuple(row.since) <= ctx.target


def _message(ctx: FileContext, row: Member) -> str:
    name = f"{row.owner_name}.{row.attr}"
    if row.use == "store":
        return f"{name} can no longer be set since {row.since}: {row.instead}"
    if row.use == "changed":
        return f"{name} is {row.instead}"
    gone = removed_in(row.owner, row.attr)
    when = f" (removed in {gone})" if gone else ""
    then = row.instead if row.instead.startswith("nothing") else f"use {row.instead}"
    return f"{name} is gone at Lightning {ctx.surface.release}{when}: {then}"


def _row(ctx: FileContext, node: cst.Attribute) -> Member | None:
    rows = by_attribute().get(node.attr.value)
    if not rows:
        return None
    cls = class_of(ctx, node.value)
    if cls is None:
        return None
    stored = _stored(ctx, node)
    if isinstance(node.value, cst.Name) and node.value.value == "self" and not stored:
        mine = enclosing_class(ctx)
        if mine is not None and node.attr.value in defined_in_class(ctx, mine):
            return None  # the user's subclass defines it: theirs, whatever Lightning did
    local = instance_class(ctx, node.value)
    if local is not None and node.attr.value in names_defined(local):
        return None  # an instance of the user's own class, which defines it
    if node.attr.value == "dims" and (made := classes_made(ctx, node.value)) and made <= ctx.options.dims_classes:
        return None  # the project's data module gives it dims itself (codemods.project.datamodule_dims)
    return next((row for row in rows if _applies(ctx, cls, row, stored)), None)


def leave_attribute(ctx: FileContext, original: cst.Attribute, updated: cst.Attribute) -> Any:
    if ctx.in_import or id(original) in ctx.claimed:  # (rule datamodule_size rewrites dm.size())
        return updated
    row = _row(ctx, original)
    if row is not None:
        ctx.todo(ID, _message(ctx, row), original)
    return updated


RULE = Rule(
    id=ID,
    description="a member of a LightningModule, LightningDataModule, callback, logger, profiler or loop that the "
    "target lacks, no longer lets you set or returns in another shape is flagged where it is used",
    deprecated_in="1.5",
    handlers={"Attribute": leave_attribute},
    order=905,
    tokens=("pytorch_lightning",),
    visit=_visit,
)
