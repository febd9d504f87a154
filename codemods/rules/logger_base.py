"""``LightningLoggerBase`` -> ``Logger`` and ``pytorch_lightning.loggers.base`` -> ``.logger`` (deprecated in 1.7,
the module removed in 1.9); ``LoggerCollection`` (removed in 1.8) gets a TODO: loggers are passed as a list.
pytorch_lightning only.

A table-driven rename: the rows live in ``legacy_api.renames`` and the generic machinery in ``_rename``.
"""

from __future__ import annotations

from codemods.plan.rule import Rule

RULE = Rule(
    id="logger_base",
    description="LightningLoggerBase and pytorch_lightning.loggers.base become Logger and loggers.logger; "
    "LoggerCollection is flagged",
    deprecated_in="1.7",
    tokens=("LightningLoggerBase", "loggers.base", "LoggerCollection"),
)
