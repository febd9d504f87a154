"""``accelerator="cpu", devices=None`` (or ``0``, ``-1``) -> ``accelerator="cpu"``: the one CPU process 1.5 ran.

Lightning 1.5 ran one CPU process for any ``devices=`` that was not a positive count next to
``accelerator="cpu"`` (``None``, ``0``, ``-1``; ``num_processes=-1`` too, which becomes ``devices=-1``). 1.6+
refuse these values ("`devices` selected with `CPUAccelerator` should be an int > 0"), and without ``devices=``
the CPU accelerator takes one device at every target: the flag is dropped.
"""

from __future__ import annotations

from codemods.plan.model import Plan
from codemods.plan.rule import Rule

ID = "cpu_devices"


def step(plan: Plan) -> None:
    accelerator, devices = plan.get("accelerator"), plan.get("devices")
    if accelerator is None or devices is None or not accelerator.known or not devices.known:
        return
    if accelerator.lit != "cpu" or plan.opaque_rest:
        return
    count = devices.lit
    if count is None or (isinstance(count, int) and not isinstance(count, bool) and count <= 0):
        plan.drop("devices")
        plan.note(ID, f"dropped devices={devices.text}: 1.5 ran one CPU process for it, 1.6+ refuse it")


RULE = Rule(
    id=ID,
    description='devices=None/0/-1 next to accelerator="cpu" (one CPU process in 1.5, refused since 1.6) is dropped',
    deprecated_in="1.6",
    scope="flags",
    step=step,
    order=32,
    tokens=("devices", "num_processes"),
)
