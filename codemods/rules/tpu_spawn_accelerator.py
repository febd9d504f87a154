"""``accelerator="tpu_spawn"`` -> ``strategy="tpu_spawn"`` with TPU cores, else ``strategy="ddp"``.

1.5 took ``"tpu_spawn"`` in ``accelerator=`` (and ``distributed_backend=``) as a distributed type: with TPU cores it
ran the XLA spawn strategy, anywhere else plain DDP (recorded 1.5.10: ``accelerator='tpu_spawn'`` with
``gpus=2``, ``num_processes=2`` or nothing selects DDPPlugin). The strategy name goes where 1.5 put it;
``strategy_names`` then spells ``"tpu_spawn"`` as 2.0's ``"xla"``.
"""

from __future__ import annotations

from codemods.plan.model import Plan, new
from codemods.plan.rule import Rule
from legacy_api.lightning15 import truthy

ID = "tpu_spawn_accelerator"


def step(plan: Plan) -> None:
    accelerator = plan.get("accelerator")
    if accelerator is None or not accelerator.known or accelerator.lit != "tpu_spawn" or "strategy" in plan:
        return
    cores = plan.get("tpu_cores")
    if cores is not None and not cores.known:
        plan.stop(ID, f'accelerator="tpu_spawn" ran XLA with TPU cores and DDP without: tpu_cores={cores.text} decides')
        return
    on_tpu = cores is not None and truthy(cores.lit)
    name = "tpu_spawn" if on_tpu else "ddp"
    items = [("strategy", new(name))]
    devices = [plan.get(flag) for flag in ("gpus", "num_processes", "ipus", "devices")]
    if not on_tpu and not any(value is not None and (not value.known or truthy(value.lit)) for value in devices):
        # Even one CPU process ran DDP here (unlike accelerator="ddp", which 1.5 dropped for one process): the
        # user's own accelerator="cpu" keeps it so at every target.
        items.append(("accelerator", new("cpu")))
    plan.replace("accelerator", items)
    plan.origin["strategy"] = ID
    where = "with TPU cores" if on_tpu else "without TPU cores"
    plan.note(ID, f'accelerator="tpu_spawn" {where} was strategy="{name}" in 1.5 (deprecated in 1.5)')


RULE = Rule(
    id=ID,
    description='accelerator="tpu_spawn" becomes strategy="tpu_spawn" with TPU cores, strategy="ddp" without (as 1.5)',
    deprecated_in="1.5",
    scope="flags",
    step=step,
    order=24,
    tokens=("tpu_spawn",),
)
