"""The one registry of strategy names (``Trainer(strategy="ddp")`` and friends)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from newcore.registry import Registry

if TYPE_CHECKING:
    from newcore.strategies.strategy import Strategy

#: Every strategy name the connector accepts, filled by the strategy classes themselves.
StrategyRegistry: Registry[Strategy] = Registry("strategy", "strategy")
