"""The `pytorch_lightning.plugins[.training_type.X]` *Plugin classes were renamed to `pytorch_lightning.strategies[.X]`
*Strategy in Lightning 1.6 (#11120) and removed in 1.8. Covers imports, module paths, attribute chains
(`pl.plugins.DDPPlugin`), `isinstance` checks, base classes and type hints.

A table-driven rename: the rows live in ``legacy_api.renames`` and the generic machinery in ``_rename``.
"""

from __future__ import annotations

from codemods.plan.rule import Rule

RULE = Rule(
    id="strategy_plugins",
    description="*Plugin strategy classes, TrainingTypePlugin and its registry become *Strategy classes",
    deprecated_in="1.6",
    tokens=("Plugin",),
)
