"""``replace_sampler_ddp=`` -> ``use_distributed_sampler=`` (a pure rename in Lightning 2.0, no shim)."""

from __future__ import annotations

from codemods.plan.model import Plan
from codemods.plan.rule import Rule
from legacy_api.renames import RENAMES

ID = "replace_sampler_ddp"
_RENAMES = {row.old.rsplit(".", 1)[1]: row.new.rsplit(".", 1)[1] for row in RENAMES if row.kind == "kwarg" and row.new}


def step(plan: Plan) -> None:
    if plan.is_compat:
        return
    for old, new_name in _RENAMES.items():
        value = plan.get(old)
        if value is not None and new_name not in plan:
            plan.replace(old, [(new_name, value)])
            plan.note(ID, f"{old}= is called {new_name}= in 2.0")


RULE = Rule(
    id=ID,
    description="replace_sampler_ddp= becomes use_distributed_sampler=",
    deprecated_in="2.0",
    scope="flags",
    step=step,
    order=80,
    tokens=("replace_sampler_ddp",),
)
