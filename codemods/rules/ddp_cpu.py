"""``accelerator="ddp_cpu"`` (+ ``num_processes=N``) -> ``accelerator="cpu", devices=N``.

A strategy name in ``accelerator=`` was deprecated in Lightning 1.5; 1.6 still mapped ``"ddp_cpu"`` silently and
1.7 removed it. ``ddp_cpu`` asked for CPU processes; how they were launched was 1.5's implicit choice: spawned
(``ddp_spawn``), but ``ddp`` under SLURM/TorchElastic/Kubeflow or with one process on several nodes. 1.6-1.9 make
exactly that choice for ``accelerator="cpu", devices=N`` without a strategy, and 2.0 launches ``ddp`` on purpose,
so no strategy is written (``strategy="ddp_spawn"`` in a config would spawn under SLURM in 2.x): a finding of kind
"report" says so (MIGRATION.md, "Selection policy"). One process ran DDP all the same, which one device without a
strategy does not: ``devices=1`` gets ``strategy="ddp"``. In a test suite (``Plan.test_suite``) several processes
get ``strategy="ddp_spawn"``, what 1.5 ran: 2.0's ``ddp`` would run the pytest command again in each process.
"""

from __future__ import annotations

from codemods.plan.model import Plan, new
from codemods.plan.rule import Rule
from legacy_api.launch_policy import TEST_SUITE_STRATEGY
from legacy_api.lightning15 import truthy as lightning_truthy

ID = "ddp_cpu"


def step(plan: Plan) -> None:
    accelerator = plan.get("accelerator")
    if accelerator is None or not accelerator.known or accelerator.lit != "ddp_cpu":
        return
    if "strategy" in plan:
        plan.stop(ID, 'accelerator="ddp_cpu" together with strategy= was an error: use accelerator="cpu" + strategy=')
        return
    processes = plan.get("num_processes")
    devices = processes if processes is not None else new(1)
    for flag in ("gpus", "tpu_cores", "ipus"):
        value = plan.get(flag)
        if value is not None and (not value.known or lightning_truthy(value.lit)):
            plan.note(ID, f'dropped {flag}={value.text}: accelerator="ddp_cpu" never used accelerators')
        if value is not None:
            plan.drop(flag)
    plan.drop("num_processes")
    plan.drop("devices")
    items = [("accelerator", new("cpu")), ("devices", devices)]
    if devices.known and devices.lit == 1:
        # One process still ran DDP in 1.5 (DDPSpawnPlugin); without a strategy one device is no DDP at all.
        items.append(("strategy", new("ddp")))
    # A literal count only: a trial of each value a name may hold must agree (codemods.frontends.python.trial).
    several = devices.known and devices.lit != 1 and not plan.trial
    if several and plan.test_suite:
        # pytest runs it: 2.0's "ddp" would start the whole pytest command again in each process (issue 26).
        items.append(("strategy", new(TEST_SUITE_STRATEGY)))
    plan.replace("accelerator", items)
    plan.note(ID, 'accelerator="ddp_cpu" is accelerator="cpu" with devices= (deprecated in 1.5)')
    if several and plan.test_suite:
        plan.note(
            ID,
            'strategy="ddp_spawn" in a test suite: 1.5 spawned these processes; the target\'s "ddp" would run the '
            "pytest command again in each of them",
        )
        return
    plan.implicit(
        ID,
        'accelerator="ddp_cpu" spawned its processes in 1.5 ("ddp" under SLURM/TorchElastic/Kubeflow or with one '
        "process on several nodes); the target's default launcher runs them (1.6-1.9 choose as 1.5 did, "
        '2.0 uses "ddp")',
    )


RULE = Rule(
    id=ID,
    description='accelerator="ddp_cpu" becomes accelerator="cpu", devices=num_processes (launcher: the target\'s)',
    deprecated_in="1.5",
    scope="flags",
    step=step,
    order=15,
    tokens=("ddp_cpu",),
)
