"""``precision=16`` / ``"bf16"`` -> ``"16-mixed"`` / ``"bf16-mixed"``.

Lightning 2.0 still accepts the old values with a warning ("16 is supported for historical reasons but its
usage is discouraged. Please set your precision to 16-mixed instead!"). 32 and 64 are mapped silently and
left alone. On TPUs (``accelerator="tpu"``) 1.x trained 16 and "bf16" as bfloat16 weights and activations
(``TPUBf16PrecisionPlugin``, ``XLA_USE_BF16=1``), which 2.x calls ``"bf16-true"``; its XLA plugin refuses the
``-mixed`` values.
"""

from __future__ import annotations

from codemods.plan.model import Plan, new
from codemods.plan.rule import Rule

ID = "precision_values"
_NEW = {16: "16-mixed", "16": "16-mixed", "bf16": "bf16-mixed"}


def _deepspeed(plan: Plan) -> bool:
    strategy = plan.get("strategy")
    if strategy is None:
        return False
    named = strategy.known and isinstance(strategy.lit, str) and strategy.lit.startswith("deepspeed")
    return named or (strategy.is_strategy and "DeepSpeed" in (strategy.source or ""))


def step(plan: Plan) -> None:
    if plan.is_compat:
        return
    precision = plan.get("precision")
    if precision is not None and precision.known and precision.lit in (64, "64", "64-true") and _deepspeed(plan):
        plan.todo(ID, "DeepSpeed does not train in float64 in 2.x (it refuses precision='64-true'): choose 32 or bf16")
        return
    if precision is None or not precision.known or precision.lit not in _NEW or isinstance(precision.lit, bool):
        return
    accelerator = plan.get("accelerator")
    spelled = "bf16-true" if accelerator is not None and accelerator.known and accelerator.lit == "tpu" else None
    plan.set("precision", new(spelled or _NEW[precision.lit]))
    plan.note(ID, f"precision={precision.text} is spelled {spelled or _NEW[precision.lit]!r} in 2.0")


RULE = Rule(
    id=ID,
    description='precision=16/"bf16" become "16-mixed"/"bf16-mixed"',
    deprecated_in="2.0",
    scope="flags",
    step=step,
    order=50,
    tokens=("precision",),
)
