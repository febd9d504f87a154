"""Lightning 2.0's new defaults: keep 1.x's CPU / ``ddp_spawn`` choices explicit, or flag them.

1.x ``Trainer()`` trained on the CPU in one process and used ``ddp_spawn`` for several devices; 2.0 picks
every accelerator and device it finds and uses ``ddp``. ``accelerator=None``/``strategy=None`` raise in 2.0.
Not a deprecation but a behaviour change of 2.0, so the rule runs for ``--target-version 2.0`` only.
"""

from __future__ import annotations

from codemods.flags import Plan, device_count, new
from codemods.rules._base import Rule

ID = "trainer_defaults"


def step(plan: Plan) -> None:
    if plan.is_compat:
        return
    accelerator, strategy, devices = plan.get("accelerator"), plan.get("strategy"), plan.get("devices")
    if accelerator is not None and accelerator.known and accelerator.lit is None:
        plan.set("accelerator", new("cpu"))
        plan.note(ID, 'accelerator=None meant the CPU; 2.0 rejects None: accelerator="cpu"')
    if strategy is not None and strategy.known and strategy.lit is None:
        plan.drop("strategy")
        strategy = None
        plan.note(ID, "strategy=None was the default; 2.0 rejects None")
    if plan.opaque_rest or plan.stopped:
        return
    if accelerator is None and devices is None:
        plan.todo(
            ID,
            "2.0 defaults to accelerator='auto', devices='auto' (every GPU, with DDP); "
            'add accelerator="cpu", devices=1 to keep the 1.x default',
        )
        return
    if strategy is not None or devices is None:
        return
    if accelerator is not None and accelerator.known and str(accelerator.lit).lower() in ("tpu", "ipu", "hpu"):
        return  # TPUs and IPUs keep their own strategy in 2.0 as in 1.x: there is no ddp_spawn to keep
    count = device_count(devices.lit) if devices.known else None
    if count is not None and count > 1:
        plan.set("strategy", new("ddp_spawn"), after="devices")
        plan.note(ID, '1.x ran several devices with "ddp_spawn"; 2.0 would use "ddp": made it explicit')
    elif count is None:
        plan.todo(ID, '1.x ran several devices with strategy="ddp_spawn"; 2.0 uses "ddp": choose one explicitly')


RULE = Rule(
    id=ID,
    description="2.0 default accelerator/devices/strategy changes are made explicit or flagged",
    deprecated_in="2.0",
    scope="flags",
    step=step,
    order=55,
    tokens=("Trainer",),
)
