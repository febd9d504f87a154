"""``accelerator="ipu"`` (also from ``ipus=N``) and ``strategy="ipu_strategy"``: a TODO from Lightning 2.1 on.

Graphcore IPU support left Lightning in 2.1 for the ``lightning-graphcore`` package (2.1-2.2 keep stubs that raise
``NotImplementedError`` naming it; 2.3 removed them, legacy_api/LIGHTNING_2X.md). 2.x then refuses
``accelerator="ipu"`` ("You selected an invalid accelerator name"); the package's own accelerator and strategy
objects are what its users pass, which no rewrite can choose for them.
"""

from __future__ import annotations

from codemods.plan.model import Plan
from codemods.plan.rule import Rule

ID = "ipu_accelerator"
_MOVED = (
    "IPU support left Lightning in 2.1: `pip install lightning-graphcore` and pass its IPUAccelerator()/"
    "IPUStrategy() objects"
)


def step(plan: Plan) -> None:
    accelerator, strategy = plan.get("accelerator"), plan.get("strategy")
    ipu = accelerator is not None and accelerator.known and accelerator.lit == "ipu"
    ipu = ipu or (strategy is not None and strategy.known and strategy.lit == "ipu_strategy")
    if ipu:
        plan.todo(ID, _MOVED)


RULE = Rule(
    id=ID,
    description='accelerator="ipu" / strategy="ipu_strategy" get a TODO from 2.1 (IPUs moved to lightning-graphcore)',
    deprecated_in="2.1",
    scope="flags",
    step=step,
    order=34,
    tokens=("ipu",),
)
