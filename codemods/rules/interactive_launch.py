"""A script-launched or spawned DDP strategy in a notebook: a TODO naming ``"ddp_notebook"``.

Lightning 1.5 ran ``strategy="ddp_spawn"`` (and ``"ddp"``) in Jupyter. Since 1.6 an interactive interpreter refuses
every launcher but fork ("`Trainer(strategy='ddp_spawn')` is not compatible with an interactive environment. Run
your code as a script, or choose one of the compatible strategies: ... ddp_notebook"); 1.7 named the fork variant
``"ddp_notebook"``. Forking instead of spawning changes what the processes inherit (CUDA must not be initialised
before ``fit``), so the choice is the user's: a TODO, only for code that runs interactively (a notebook's cells,
``Options.interactive``).
"""

from __future__ import annotations

from codemods.plan.model import Plan
from codemods.plan.rule import Rule

ID = "interactive_launch"
#: Strategy names 1.5 launched by spawning or by re-running the script (their 2.x spellings too).
_LAUNCHED = ("ddp", "ddp_spawn", "ddp_sharded", "ddp_sharded_spawn", "deepspeed", "fsdp")


def _launched(name: str) -> bool:
    base = name.removesuffix("_find_unused_parameters_false").removesuffix("_find_unused_parameters_true")
    return base in _LAUNCHED or base.startswith("deepspeed_stage")


def step(plan: Plan) -> None:
    if not plan.interactive:
        return
    strategy = plan.get("strategy")
    if strategy is None:
        return
    spelled = strategy.source or ""
    named = strategy.known and isinstance(strategy.lit, str) and _launched(strategy.lit.lower())
    if named or (strategy.is_strategy and ("Spawn" in spelled or "spawn" in spelled or "DDP" in spelled)):
        plan.todo(
            ID,
            f"strategy={strategy.text} cannot run in a notebook since 1.6 (only forked processes can): use "
            'strategy="ddp_notebook" (1.5 spawned or re-launched processes here)',
        )


RULE = Rule(
    id=ID,
    description='a spawned or script-launched DDP strategy in a notebook gets a TODO naming "ddp_notebook"',
    deprecated_in="1.6",
    scope="flags",
    step=step,
    order=65,
    tokens=("ddp", "deepspeed", "fsdp", "Spawn"),
)
