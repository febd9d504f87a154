"""Strategy names whose meaning changes or that disappear after 1.6 get a TODO (or a rename).

``"ddp2"`` stops working in 1.7; ``"horovod"`` and the FairScale names (``"ddp_sharded*"``,
``"ddp_fully_sharded"``) are deprecated in 1.9; in 2.0 ``"dp"`` is gone, ``"fsdp"`` means native FSDP instead of
FairScale's, ``"ddp"``/``"ddp_spawn"`` default to ``find_unused_parameters=False`` and ``"tpu_spawn_debug"`` is
``"xla_debug"``.
"""

from __future__ import annotations

from codemods.flags import Plan, new
from codemods.rules._base import Rule

ID = "strategy_names"

#: name -> (version, replacement or None, message)
_CHANGES: dict[str, tuple[tuple[int, ...], str | None, str]] = {
    "ddp2": ((1, 7), None, 'strategy="ddp2" is no longer supported from 1.7: use "ddp"'),
    "horovod": ((1, 9), None, "Horovod moved out of Lightning (lightning-Horovod) in 2.0"),
    "ddp_sharded": ((1, 9), None, 'FairScale sharding is removed in 2.0: use strategy="fsdp"'),
    "ddp_sharded_spawn": ((1, 9), None, 'FairScale sharding is removed in 2.0: use strategy="fsdp"'),
    "ddp_sharded_find_unused_parameters_false": ((1, 9), None, "FairScale sharding is removed in 2.0"),
    "ddp_sharded_spawn_find_unused_parameters_false": ((1, 9), None, "FairScale sharding is removed in 2.0"),
    "ddp_fully_sharded": ((1, 9), None, 'FairScale FSDP is removed in 2.0: strategy="fsdp" is native FSDP'),
    "dp": ((2, 0), None, 'strategy="dp" is removed in 2.0: use "ddp"'),
    "fsdp": ((2, 0), None, 'strategy="fsdp" means native PyTorch FSDP in 2.0, not FairScale: check its options'),
    "ddp": (
        (2, 0),
        None,
        'DDP defaults to find_unused_parameters=False in 2.0: use "ddp_find_unused_parameters_true" to keep 1.x',
    ),
    "ddp_spawn": (
        (2, 0),
        None,
        'DDP defaults to find_unused_parameters=False in 2.0: use "ddp_spawn_find_unused_parameters_true" to keep 1.x',
    ),
    "tpu_spawn_debug": ((2, 0), "xla_debug", ""),
}


def step(plan: Plan) -> None:
    strategy = plan.get("strategy")
    if plan.is_compat or strategy is None or not strategy.known or not isinstance(strategy.lit, str):
        return
    change = _CHANGES.get(strategy.lit.lower())
    if change is None or change[0] > plan.target:
        return
    _, replacement, message = change
    if replacement is None:
        plan.todo(ID, message)
    else:
        plan.set("strategy", new(replacement))
        plan.note(ID, f"strategy={strategy.text} is called {replacement!r} in 2.0")


RULE = Rule(
    id=ID,
    description="strategy names that change meaning or disappear (ddp2, dp, horovod, FairScale, fsdp) are flagged",
    deprecated_in="1.7",
    scope="flags",
    step=step,
    order=60,
    tokens=("strategy", "accelerator", "distributed_backend", "plugins"),
)
