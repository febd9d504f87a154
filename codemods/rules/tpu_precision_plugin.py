"""``plugins=[PrecisionPlugin()]`` on TPUs: dropped from 2.0 on, where it is the default it stood for.

1.5 ran a plain ``PrecisionPlugin()`` next to ``tpu_cores=`` as 32-bit XLA precision (recorded 1.5.10:
``plugins=[PrecisionPlugin()], tpu_cores=8`` trains in 32 bit on the TPU cores). 2.x's XLA strategies refuse any
precision plugin but ``XLAPrecision`` ("The XLA strategy can only work with the `XLAPrecision` plugin"), and
without one use ``XLAPrecision("32-true")``: dropping the plugin is exact. Only the sole plugin of the call is
dropped; next to others it gets a TODO (the list is the user's).
"""

from __future__ import annotations

import re

from codemods.plan.model import Plan, Value
from codemods.plan.rule import Rule

ID = "tpu_precision_plugin"
#: The plain class, written bare or through a module, by its 1.5 name or its 2.x one (``Precision``).
_PLAIN = re.compile(r"(?:^|\.)(?:PrecisionPlugin|Precision)\(\s*\)$")


def _plain(value: Value) -> bool:
    return value.plugin_precision is not None and _PLAIN.search((value.source or "").strip()) is not None


def step(plan: Plan) -> None:
    accelerator, plugins = plan.get("accelerator"), plan.get("plugins")
    if accelerator is None or plugins is None or not (accelerator.known and accelerator.lit == "tpu"):
        return
    items = plugins.items if plugins.items is not None else [plugins]
    plain = [item for item in items if _plain(item)]
    if not plain:
        return
    if len(items) == 1:
        plan.drop("plugins")
        plan.note(ID, f"dropped plugins={plugins.text}: on TPUs it was 32-bit XLA precision, 2.x's default there")
        return
    plan.todo(
        ID,
        f"{plain[0].text} on TPUs was 32-bit XLA precision in 1.5; 2.x's XLA strategy refuses it: remove it "
        "(XLAPrecision('32-true') is the default there)",
    )


RULE = Rule(
    id=ID,
    description="a plain PrecisionPlugin() next to TPU cores (32-bit XLA precision in 1.5) is dropped from 2.0",
    deprecated_in="2.0",
    scope="flags",
    step=step,
    order=36,
    tokens=("PrecisionPlugin", "Precision("),
)
