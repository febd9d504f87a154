"""``strategy=""`` / ``accelerator=""`` -> nothing: an empty name chose nothing in 1.5.

Lightning 1.5 tested these flags for truth, so an empty string was the default (recorded 1.5.10:
``strategy=''`` and ``accelerator=''`` select one CPU device); 2.x refuses both ("You selected an invalid
strategy name"). Dropping the flag selects the target's default, which the other rules then treat as 1.5's.
"""

from __future__ import annotations

from codemods.plan.model import Plan
from codemods.plan.rule import Rule

ID = "empty_names"


def step(plan: Plan) -> None:
    for key in ("strategy", "accelerator", "distributed_backend"):
        value = plan.get(key)
        if value is not None and value.known and isinstance(value.lit, str) and not value.lit.strip():
            plan.drop(key)
            plan.note(ID, f"dropped {key}={value.text}: an empty name chose nothing in 1.5, 1.6+ refuse it")


RULE = Rule(
    id=ID,
    description="an empty strategy=/accelerator= name (the default in 1.5, refused since 1.6) is dropped",
    deprecated_in="1.6",
    scope="flags",
    step=step,
    order=5,
    tokens=("strategy", "accelerator", "distributed_backend"),
)
