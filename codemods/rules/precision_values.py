"""``precision=16`` / ``"bf16"`` -> ``"16-mixed"`` / ``"bf16-mixed"``.

Lightning 2.0 still accepts the old values with a warning ("16 is supported for historical reasons but its
usage is discouraged. Please set your precision to 16-mixed instead!"). 32 and 64 are mapped silently and
left alone.
"""

from __future__ import annotations

from codemods.plan import Plan, new
from codemods.rule import Rule

ID = "precision_values"
_NEW = {16: "16-mixed", "16": "16-mixed", "bf16": "bf16-mixed"}


def step(plan: Plan) -> None:
    if plan.is_compat:
        return
    precision = plan.get("precision")
    if precision is None or not precision.known or precision.lit not in _NEW or isinstance(precision.lit, bool):
        return
    plan.set("precision", new(_NEW[precision.lit]))
    plan.note(ID, f"precision={precision.text} is spelled {_NEW[precision.lit]!r} in 2.0")


RULE = Rule(
    id=ID,
    description='precision=16/"bf16" become "16-mixed"/"bf16-mixed"',
    deprecated_in="2.0",
    scope="flags",
    step=step,
    order=50,
    tokens=("precision",),
)
