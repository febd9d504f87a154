"""``accelerator="tpu", devices="2"`` -> ``devices=[2]``: a string named TPU core indices in 1.5.

1.5 parsed a TPU core string other than "1" and "8" as a list of core indices (recorded 1.5.10:
``accelerator='tpu', devices='2'`` runs on core ``xla:2``). 2.x takes ``1``, ``8`` or a one-index list
("`devices` can only be 'auto', 1, 8 or [<0-7>] for TPUs"). Only a single index has an exact spelling.
"""

from __future__ import annotations

from codemods.plan import Plan, new
from codemods.rule import Rule

ID = "tpu_devices"


def step(plan: Plan) -> None:
    accelerator, devices = plan.get("accelerator"), plan.get("devices")
    if accelerator is None or devices is None or not accelerator.known or not devices.known:
        return
    text = devices.lit
    if accelerator.lit != "tpu" or not isinstance(text, str) or text.strip() in ("1", "8", "auto", "-1"):
        return
    index = text.strip().rstrip(",")
    if index.isdigit() and 0 <= int(index) <= 7:
        plan.set("devices", new([int(index)]))
        plan.note(ID, f"devices={devices.text} on TPUs was core {index} in 1.5: devices=[{index}]")


RULE = Rule(
    id=ID,
    description='a TPU core string (devices="2": core 2 in 1.5) becomes a one-index list',
    deprecated_in="1.6",
    scope="flags",
    step=step,
    order=33,
    tokens=("tpu",),
)
