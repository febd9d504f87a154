"""``auto_select_gpus=True`` -> ``devices=find_usable_cuda_devices(N)``.

Deprecated in Lightning 1.9, removed in 2.0. 1.5 read it only next to an integer ``gpus=`` (``devices=`` was
mapped to the GPUs later): without ``gpus=`` it is dropped whatever it holds. Only a literal device count can be
rewritten; newcore has no ``find_usable_cuda_devices``, so compat code gets a TODO.
"""

from __future__ import annotations

from codemods.plan.model import Plan, Value
from codemods.plan.rule import Rule
from legacy_api.lightning15 import device_count

ID = "auto_select_gpus"
#: One wording for every call it cannot decide: a second pass (or run) over a migrated call, whose devices= may
#: have been gpus=, must not word it differently.
TODO = (
    "auto_select_gpus is gone in 2.0: use devices=find_usable_cuda_devices(n) where devices= was gpus=n (an int); "
    "1.5 picked no GPUs for any other devices=, so drop it there"
)


def step(plan: Plan) -> None:
    flag = plan.get("auto_select_gpus")
    if flag is None:
        return
    if flag.known and not flag.lit:
        plan.drop("auto_select_gpus")
        plan.note(ID, f"removed auto_select_gpus={flag.text}: it was the default")
        return
    devices = plan.get("devices")
    gpus = "gpus" in plan or "gpus" in plan.successor
    pure = plan.droppable(flag)
    # Not next to the user's own devices=: in a migrated call that may have been gpus= (a second run could not
    # tell), so a TODO stays. devices= made from tpu_cores=/num_processes=/ipus= in this run picked no GPUs.
    # (codemods.project.scan_python._dropped_reads foresees this drop, so that the read it passes on holds no config
    # key.)
    own_devices = devices is not None and plan.origin.get("devices", "explicit") == "explicit"
    if not gpus and not own_devices and pure and not plan.opaque_rest:
        # 1.5 picked free GPUs only for gpus=N (Trainer._parse_devices, before devices= was mapped to the GPUs):
        # without gpus= there was nothing to pick, whatever the flag held.
        plan.drop("auto_select_gpus")
        plan.note(ID, f"removed auto_select_gpus={flag.text}: without gpus= it selected nothing in 1.5")
        return
    written = plan.get("gpus") or (devices if gpus or own_devices else None)
    if written is not None and written.known and isinstance(written.lit, list | str) and pure:
        # gpus=[2] or gpus="0,1": _parse_devices picked only for an int; and no gpus=N became a devices= string or
        # list in an earlier run, so the user's devices="auto" (or [0, 1]) says the same
        plan.drop("auto_select_gpus")
        plan.note(ID, f"removed auto_select_gpus={flag.text}: 1.5 picked GPUs only for an int gpus=")
        return
    count = device_count(devices.lit) if devices is not None and devices.known else None
    if (
        not flag.known
        or plan.is_compat
        or not gpus
        or devices is None
        or count is None
        or isinstance(devices.lit, list | str)
    ):
        plan.todo(ID, TODO)
        return
    call = Value(ctor=("accelerators.find_usable_cuda_devices", {"": devices}), source="find_usable_cuda_devices(...)")
    plan.imports.append(("accelerators", "find_usable_cuda_devices"))
    plan.set("devices", call)
    plan.drop("auto_select_gpus")
    plan.note(ID, f"auto_select_gpus=True became devices=find_usable_cuda_devices({count}) (deprecated in 1.9)")


RULE = Rule(
    id=ID,
    description="auto_select_gpus=True next to an int gpus= becomes devices=find_usable_cuda_devices(n); without "
    "one it is dropped (1.5 picked no GPUs then)",
    deprecated_in="1.9",
    scope="flags",
    step=step,
    order=45,
    tokens=("auto_select_gpus",),
)
