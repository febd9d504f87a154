"""The one registry of strategy names (``Trainer(strategy="ddp")`` and friends)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from newcore.registry import Registry

if TYPE_CHECKING:
    from newcore.strategies.strategy import Strategy


class _StrategyRegistry(Registry["Strategy"]):
    """A registry whose instances remember the name they were built from.

    Messages then quote the user's own flag (``strategy='fsdp'``), even for an alias of a class
    that has several names.
    """

    def get(self, name: str, **overrides: Any) -> Strategy:
        """Build the strategy registered under ``name`` and set its ``registered_name`` to that key."""
        entry = self.entry(name)
        strategy = entry.build(**overrides)
        strategy.registered_name = entry.name
        return strategy


#: Every strategy name the connector accepts, filled by the strategy classes themselves.
StrategyRegistry: Registry[Strategy] = _StrategyRegistry("strategy", "strategy")
