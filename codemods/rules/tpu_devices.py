"""``accelerator="tpu", devices="2"`` -> ``devices=[2]``: a string named TPU core indices in 1.5.

1.5 parsed a TPU core string other than "1" and "8" as a list of core indices (recorded 1.5.10:
``accelerator='tpu', devices='2'`` runs on core ``xla:2``). 2.x takes ``1``, ``8`` or a one-index list
("`devices` can only be 'auto', 1, 8 or [<0-7>] for TPUs"). Only a single index has an exact spelling. With
``accelerator="auto"`` the same string was a count on a GPU host: a TODO.
"""

from __future__ import annotations

from codemods.plan.model import Plan, new
from codemods.plan.rule import Rule

ID = "tpu_devices"


def step(plan: Plan) -> None:
    accelerator, devices = plan.get("accelerator"), plan.get("devices")
    if accelerator is None or devices is None or not accelerator.known or not devices.known:
        return
    text = devices.lit
    if not isinstance(text, str) or text.strip() in ("1", "8", "auto", "-1"):
        return
    index = text.strip().rstrip(",")
    if accelerator.lit == "auto" and index.isdigit() and 0 <= int(index) <= 7:
        # On a TPU host 1.5 ran core N; on a GPU host N devices: no one spelling says both (2.x refuses "N" there).
        plan.stop(
            ID,
            f'accelerator="auto" with devices={devices.text}: a TPU host ran core {index} in 1.5 (2.x: '
            f'accelerator="tpu", devices=[{index}]), any other host {index} devices (devices={index}): choose one',
        )
        return
    if accelerator.lit != "tpu":
        return
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
    tokens=("tpu", "auto"),
)
