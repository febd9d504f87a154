"""``distributed_backend=`` -> the 1.5 meaning of ``accelerator=`` (then ``strategy=``).

Deprecated in Lightning 1.4 and removed in 1.5. Code that still passes it was written for 1.4, where the
connector did ``distributed_backend or accelerator``: the backend won whenever it was set.
"""

from __future__ import annotations

from codemods.flags import Plan
from codemods.rules._base import Rule
from legacy_api.lightning15 import truthy as lightning_truthy

ID = "distributed_backend"


def step(plan: Plan) -> None:
    backend = plan.get("distributed_backend")
    if backend is None:
        return
    if backend.known and not lightning_truthy(backend.lit):
        plan.drop("distributed_backend")
        plan.note(ID, f"removed distributed_backend={backend.text}: it selected nothing")
        return
    accelerator = plan.get("accelerator")
    if accelerator is not None:
        if not backend.known:
            plan.todo(
                ID, "distributed_backend= overrides accelerator= when set (1.4): keep one and pass it as strategy="
            )
            plan.stopped = True
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
