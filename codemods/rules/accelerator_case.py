"""``accelerator="GPU"`` -> ``accelerator="gpu"``: accelerator names in lower case.

Lightning 1.5 compared accelerator names case-insensitively (``"GPU"`` and ``"Cpu"`` selected the GPU and the CPU).
1.6.5 fell back to the CPU, without a word, for a name it did not know, ``"GPU"`` included; 2.x refuses it ("You
selected an invalid accelerator name"). The lower-case spelling selects what 1.5 selected at every target.
"""

from __future__ import annotations

from codemods.plan.model import Plan, new
from codemods.plan.rule import Rule
from legacy_api.renames import ACCELERATOR_NAMES

ID = "accelerator_case"


def step(plan: Plan) -> None:
    accelerator = plan.get("accelerator")
    if accelerator is None or not accelerator.known or not isinstance(accelerator.lit, str):
        return
    lower = accelerator.lit.lower()
    if lower == accelerator.lit or lower not in ACCELERATOR_NAMES:
        return
    plan.set("accelerator", new(lower))
    plan.note(ID, f"accelerator={accelerator.text} is spelled {lower!r}: only 1.5 read names case-insensitively")


RULE = Rule(
    id=ID,
    description='accelerator names are written in lower case ("GPU" -> "gpu"), as 1.6+ read them',
    deprecated_in="1.6",
    scope="flags",
    step=step,
    order=26,
    tokens=("accelerator",),
)
