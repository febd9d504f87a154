"""``pytorch_lightning.lite.LightningLite`` (deprecated in 1.9, its module removed in 2.0) gets a TODO naming
``lightning_fabric.Fabric``: another package, and other defaults, so never a silent rename. pytorch_lightning only.

A table-driven rule: the rows live in ``legacy_api.renames`` and the generic machinery in ``_rename``.
"""

from __future__ import annotations

from codemods.plan.rule import Rule

RULE = Rule(
    id="lite_fabric",
    description="LightningLite (pytorch_lightning.lite, removed in 2.0) is flagged with its successor, "
    "lightning_fabric.Fabric",
    deprecated_in="1.9",
    tokens=("LightningLite",),
)
