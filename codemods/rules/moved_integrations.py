"""The IPU and HPU integrations left Lightning in 2.1 (lightning-graphcore, lightning-habana): their classes are
stubs that raise there, so each use gets a TODO naming the package. pytorch_lightning only.

A table-driven rule: the rows live in ``legacy_api.renames`` and the generic machinery in ``_rename``.
"""

from __future__ import annotations

from codemods.plan.rule import Rule

RULE = Rule(
    id="moved_integrations",
    description="IPU/HPU accelerators, strategies and precision plugins (moved out of Lightning in 2.1) are flagged",
    deprecated_in="2.1",
    tokens=(
        "IPU",
        "HPU",
    ),
)
