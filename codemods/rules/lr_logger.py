"""``callbacks.LearningRateLogger`` is ``LearningRateMonitor`` (0.10 renamed it, keeping the old name as a subclass
that only forwarded its arguments; 1.0 removed it). Code that still names it ran on 0.x, where it was the monitor;
2.x's ``LearningRateMonitor(logging_interval=None, ...)`` takes the same first argument. pytorch_lightning only.

A table-driven rename: the rows live in ``legacy_api.renames`` and the generic machinery in ``_rename``.
"""

from __future__ import annotations

from codemods.plan.rule import Rule

RULE = Rule(
    id="lr_logger",
    description="callbacks.LearningRateLogger becomes callbacks.LearningRateMonitor (renamed in 0.10, removed in 1.0)",
    deprecated_in="0.10",
    tokens=("LearningRateLogger", "callbacks.lr_logger"),
)
