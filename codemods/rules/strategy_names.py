"""Strategy names whose meaning changes or that disappear after 1.6 get a TODO (or a rename).

``"ddp2"`` stops working in 1.7; ``"horovod"`` and the FairScale names (``"ddp_sharded*"``,
``"ddp_fully_sharded"``) are deprecated in 1.9; in 2.0 ``"dp"`` is gone, ``"fsdp"`` means native FSDP instead of
FairScale's and ``"tpu_spawn_debug"`` is ``"xla_debug"``. ``"ddp"``/``"ddp_spawn"`` (and DDP strategy objects
that leave it unset) default to ``find_unused_parameters=False`` in 2.0: an implicit 1.x default the target
changed on purpose and reports loudly itself, so it gets a finding of kind "report" ("implicit: ..."), neither a
rewrite to ``"ddp_find_unused_parameters_true"`` nor a TODO (MIGRATION.md, "Selection policy").
"""

from __future__ import annotations

import re

from codemods.plan.model import Plan, Value, new
from codemods.plan.rule import Rule

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
    "tpu_spawn_debug": ((2, 0), "xla_debug", ""),
    "tpu_spawn": ((2, 0), "xla", ""),
    "hpu_parallel": ((2, 1), None, "HPU support left Lightning in 2.1: `pip install lightning-habana`"),
    "hpu_single": ((2, 1), None, "HPU support left Lightning in 2.1: `pip install lightning-habana`"),
}
#: Names that run only on TPUs in 2.x, where 1.5 also built them for other accelerators.
_TPU_ONLY = frozenset({"tpu_spawn_debug"})


#: DDP names whose find_unused_parameters default goes from True (1.x) to False (2.0).
_DDP_DEFAULTS = frozenset({"ddp", "ddp_spawn"})
#: A DDP strategy object that leaves find_unused_parameters to its default (``DDPPlugin()``, a ``class_path``).
_DDP_OBJECT = re.compile(r"\bDDP(?:Spawn)?(?:Plugin|Strategy)\b")
_FIND_UNUSED = (
    "DDP's find_unused_parameters default is False in 2.0 (True in 1.x); the target says so loudly: torch's "
    "DDP raises at the first step with unused parameters and Lightning's message names "
    '"ddp_find_unused_parameters_true"'
)


#: What 1.x did with a spawning DDP under a cluster that starts the processes itself.
_SPAWN_ON_CLUSTERS = '; under SLURM/TorchElastic/Kubeflow 1.x ran "ddp_spawn" as "ddp", 2.x spawns there'


def _ddp_default(strategy: Value) -> bool:
    return strategy.known and isinstance(strategy.lit, str) and strategy.lit.lower() in _DDP_DEFAULTS


def _implicit_find_unused(plan: Plan, strategy: Value) -> bool:
    """A DDP strategy that leaves find_unused_parameters to 1.x's default: report it (never rewrite it)."""
    if plan.target < (2, 0):
        return False
    if strategy.cond is not None:  # ``"ddp" if gpus else "auto"`` (device_flags): the DDP branch says it
        strategy = next((branch for branch in strategy.cond[1:] if _ddp_default(branch)), strategy)
    if _ddp_default(strategy):
        spawn = _SPAWN_ON_CLUSTERS if strategy.lit.lower() == "ddp_spawn" else ""
        plan.implicit(ID, f"strategy={strategy.text}: {_FIND_UNUSED}{spawn}")
        return True
    source = strategy.source or ""
    if strategy.is_strategy and _DDP_OBJECT.search(source) and "find_unused_parameters" not in source:
        spawn = _SPAWN_ON_CLUSTERS if "DDPSpawn" in source else ""
        plan.implicit(ID, f"{source}: {_FIND_UNUSED}{spawn}")
        return True
    return False


def step(plan: Plan) -> None:
    strategy = plan.get("strategy")
    if plan.is_compat or strategy is None or _implicit_find_unused(plan, strategy):
        return
    if not strategy.known or not isinstance(strategy.lit, str):
        return
    change = _CHANGES.get(strategy.lit.lower())
    if change is None or change[0] > plan.target:
        return
    _, replacement, message = change
    accelerator = plan.get("accelerator")
    if strategy.lit.lower() in _TPU_ONLY and not (accelerator is not None and accelerator.lit == "tpu"):
        plan.todo(
            ID,
            f'strategy={strategy.text} is "{replacement}" in 2.x, which needs torch_xla and TPUs; 1.5 also ran it on '
            "other accelerators (one process, no XLA): choose a strategy for this accelerator",
        )
        return
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
