"""``distributed_backend=`` -> the 1.5 meaning of ``accelerator=`` (then ``strategy=``).

Deprecated in Lightning 1.4 and removed in 1.5. Code that still passes it was written for 1.4, where the
connector did ``distributed_backend or accelerator``: the backend won whenever it was set.

A value that is not a literal (``distributed_backend=backend``) may name a strategy or a device: from target
1.6, where ``strategy=`` exists (and 1.7 stopped taking strategy names in ``accelerator=``), it is not renamed
into a flag it may be invalid for; it stays, with a TODO that says where each kind of name goes. ``"ddp" if c
else None`` (strategy names either way) or ``"gpu" if c else "cpu"`` still move as a whole.
"""

from __future__ import annotations

from codemods.plan.model import Plan, Value
from codemods.plan.rule import Rule
from legacy_api.lightning15 import truthy as lightning_truthy

ID = "distributed_backend"


def _may_name_a_strategy(value: Value) -> bool:
    """Whether a value that is not a literal may hold a strategy name (``"ddp" if c else "gpu"`` may).

    ``"ddp" if c else None`` (a strategy either way) moves as a whole, as ``"gpu" if c else "cpu"`` does: the
    accelerator_strategy rule routes those exactly."""
    from codemods.rules.accelerator_strategy import kind

    return kind(value) not in ("strategy", "accelerator", "none")


def step(plan: Plan) -> None:
    backend = plan.get("distributed_backend")
    if backend is None:
        return
    if backend.known and not lightning_truthy(backend.lit):
        plan.drop("distributed_backend")
        plan.note(ID, f"removed distributed_backend={backend.text}: it selected nothing")
        return
    if not backend.known and _may_name_a_strategy(backend) and (plan.is_compat or plan.target >= (1, 6)):
        # accelerator= takes only device names since 1.7, and strategy= only strategy names: renaming a value
        # this plan cannot read into either could be invalid there. Left as it is, for the user to route.
        plan.stop(
            ID,
            f"distributed_backend={backend.text} is not a literal (distributed_backend= was removed in 1.5): pass "
            "it as strategy= when it names a strategy (ddp, ddp_spawn, dp, deepspeed, ...), as accelerator= "
            "when it names a device (cpu, gpu, tpu)",
        )
        return
    accelerator = plan.get("accelerator")
    if accelerator is not None:
        if not backend.known:
            plan.stop(
                ID, "distributed_backend= overrides accelerator= when set (1.4): keep one and pass it as strategy="
            )
            return
        plan.drop("accelerator")
        plan.note(ID, f"dropped accelerator={accelerator.text}: Lightning 1.4 used distributed_backend instead")
    plan.replace("distributed_backend", [("accelerator", backend)])
    plan.origin["accelerator"] = ID
    plan.note(ID, "distributed_backend= was removed in 1.5; it meant accelerator= (1.4)")


RULE = Rule(
    id=ID,
    description="distributed_backend= (removed in 1.5) becomes strategy=, with its 1.4 meaning",
    deprecated_in="1.4",
    scope="flags",
    step=step,
    order=10,
    tokens=("distributed_backend",),
)
