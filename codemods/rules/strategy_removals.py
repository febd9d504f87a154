"""Later fates of the 1.6 strategy classes: `DDP2Strategy` fails from 1.7, FairScale and Horovod strategies are
deprecated in 1.9, `DataParallelStrategy` and `DDPSpawnStrategy` are gone in 2.0 (TODO) and `TPUSpawnStrategy` is
`XLAStrategy` in 2.0 (renamed). pytorch_lightning only: newcore keeps the 1.6-1.9 names.

A table-driven rename: the rows live in ``legacy_api.renames`` and the generic machinery in ``_rename``.
"""

from __future__ import annotations

from codemods.plan.rule import Rule

RULE = Rule(
    id="strategy_removals",
    description="strategy classes retired after 1.6 (DDP2, FairScale, Horovod, DP, DDPSpawn, TPUSpawn) are flagged",
    deprecated_in="1.7",
    tokens=(
        "Strategy",
        "Plugin",
    ),
)
