"""Names 1.6-1.8 moved within ``pytorch_lightning``: ``utilities.distributed.rank_zero_*`` -> ``utilities.rank_zero``
(1.6), ``utilities.seed.seed_everything`` -> ``pytorch_lightning.seed_everything`` (deprecated in 1.8, gone in 2.0),
``utilities.cli`` -> ``cli`` (1.7, gone in 1.9), ``core.lightning`` -> ``core.module`` and ``callbacks.base`` ->
``callbacks.callback`` (1.7, gone in 1.9). pytorch_lightning only.

A table-driven rename: the rows live in ``legacy_api._rename_rows_moved`` (read in the releases' own deprecation
messages) and the generic machinery renames imports and uses. A name of those modules with no row (``utilities.cli``'s
registries, ``utilities.distributed.sync_ddp``) is rule ``removed_names``' matter.
"""

from __future__ import annotations

from codemods.plan.rule import Rule

RULE = Rule(
    id="moved_modules",
    description="names moved within pytorch_lightning (utilities.distributed.rank_zero_*, utilities.seed, "
    "utilities.cli, core.lightning, callbacks.base) are imported from their new module",
    deprecated_in="1.6",
    tokens=("utilities.distributed", "utilities.seed", "utilities.cli", "core.lightning", "callbacks.base"),
)
