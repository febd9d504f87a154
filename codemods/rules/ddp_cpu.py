"""``accelerator="ddp_cpu"`` (+ ``num_processes=N``) -> ``accelerator="cpu", strategy="ddp_spawn", devices=N``.

A strategy name in ``accelerator=`` was deprecated in Lightning 1.5; 1.6 still mapped ``"ddp_cpu"`` silently and
1.7 removed it. With one process per node on several nodes 1.6 fell back to ``"ddp"``.
"""

from __future__ import annotations

from codemods.flags import Plan, device_count, lightning_truthy, new
from codemods.rules._base import Rule

ID = "ddp_cpu"


def step(plan: Plan) -> None:
    accelerator = plan.get("accelerator")
    if accelerator is None or not accelerator.known or accelerator.lit != "ddp_cpu":
        return
    if "strategy" in plan:
        plan.todo(ID, 'accelerator="ddp_cpu" together with strategy= was an error: use accelerator="cpu" + strategy=')
        plan.stopped = True
        return
    processes = plan.get("num_processes")
    devices = processes if processes is not None else new(1)
    count = device_count(devices.lit) if devices.known else None
    nodes = plan.get("num_nodes")
    if nodes is None or (nodes.known and nodes.lit == 1):
        strategy = "ddp_spawn"
    elif nodes.known and count is not None:
        strategy = "ddp" if count == 1 and isinstance(nodes.lit, int) and nodes.lit > 1 else "ddp_spawn"
    else:
        plan.todo(ID, 'accelerator="ddp_cpu" meant "ddp" with one process on several nodes, else "ddp_spawn"')
        plan.stopped = True
        return
    for flag in ("gpus", "tpu_cores", "ipus"):
        value = plan.get(flag)
        if value is not None and (not value.known or lightning_truthy(value.lit)):
            plan.note(ID, f'dropped {flag}={value.text}: accelerator="ddp_cpu" never used accelerators')
        if value is not None:
            plan.drop(flag)
    plan.drop("num_processes")
    plan.drop("devices")
    plan.replace("accelerator", [("accelerator", new("cpu")), ("strategy", new(strategy)), ("devices", devices)])
    plan.note(ID, f'accelerator="ddp_cpu" is accelerator="cpu", strategy="{strategy}" since 1.6')


RULE = Rule(
    id=ID,
    description='accelerator="ddp_cpu" becomes accelerator="cpu", strategy="ddp_spawn", devices=num_processes',
    deprecated_in="1.5",
    scope="flags",
    step=step,
    order=15,
    tokens=("ddp_cpu",),
)
