"""``auto_select_gpus=True`` -> ``devices=find_usable_cuda_devices(N)``.

Deprecated in Lightning 1.9, removed in 2.0. Only a literal device count can be rewritten; newcore has no
``find_usable_cuda_devices``, so compat code gets a TODO.
"""

from __future__ import annotations

from codemods.plan import Plan, Value
from codemods.rule import Rule
from legacy_api.lightning15 import device_count

ID = "auto_select_gpus"


def step(plan: Plan) -> None:
    flag = plan.get("auto_select_gpus")
    if flag is None:
        return
    if flag.known and not flag.lit:
        plan.drop("auto_select_gpus")
        plan.note(ID, f"removed auto_select_gpus={flag.text}: it was the default")
        return
    devices, accelerator = plan.get("devices"), plan.get("accelerator")
    if flag.known and devices is None and not plan.opaque_rest and (accelerator is None or accelerator.lit == "cpu"):
        # 1.5 picked free GPUs only for gpus=N: without a device count there was nothing to pick.
        plan.drop("auto_select_gpus")
        plan.note(ID, f"removed auto_select_gpus={flag.text}: without gpus= it selected nothing in 1.5")
        return
    count = device_count(devices.lit) if devices is not None and devices.known else None
    if not flag.known or plan.is_compat or devices is None or count is None or isinstance(devices.lit, list | str):
        plan.todo(ID, "auto_select_gpus is gone in 2.0: use devices=find_usable_cuda_devices(n)")
        return
    call = Value(ctor=("accelerators.find_usable_cuda_devices", {"": devices}), source="find_usable_cuda_devices(...)")
    plan.imports.append(("accelerators", "find_usable_cuda_devices"))
    plan.set("devices", call)
    plan.drop("auto_select_gpus")
    plan.note(ID, f"auto_select_gpus=True became devices=find_usable_cuda_devices({count}) (deprecated in 1.9)")


RULE = Rule(
    id=ID,
    description="auto_select_gpus=True becomes devices=find_usable_cuda_devices(n)",
    deprecated_in="1.9",
    scope="flags",
    step=step,
    order=45,
    tokens=("auto_select_gpus",),
)
