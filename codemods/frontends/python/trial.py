"""A trial of the flag rules on a call that is not Lightning's ``Trainer(...)``: which of its flags they would touch.

Apart from :class:`~codemods.frontends.python.context.FileContext`, which the rules import: this module imports the
loop that runs them. The pipeline hands :func:`flags_to_migrate` to the context it builds.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from codemods.frontends.python.values import read
from codemods.plan.apply_rules import run_flag_rules
from codemods.plan.model import Plan
from legacy_api.renames import PL

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext


def flags_to_migrate(ctx: FileContext, call: Any) -> list[str]:
    """The keywords of ``call`` that the flag rules would rewrite, or name in a TODO, were it a ``Trainer(...)``
    call: a trial plan, nothing reported (rule ``trainer_subclasses``)."""
    items = [(a.keyword.value, read(ctx, a.value, a.value)) for a in call.args if a.keyword is not None]
    origin = {key: "explicit" for key, _ in items}
    plan = Plan(list(items), ctx.target, PL, ctx.enabled, True, origin=origin, trial=True, untuned=ctx.untuned)
    run_flag_rules(plan)
    after = dict(plan.items)
    named = " ".join(note.message for note in plan.notes)
    return [key for key, value in items if after.get(key) is not value or re.search(rf"\b{key}\b", named)]
