"""The one registry of strategy names (``Trainer(strategy="ddp")`` and friends).

The registry is created next to :class:`~newcore.strategies.strategy.Strategy`, whose subclasses register
themselves into it as they are created; this module is its import path (Lightning's ``strategies.strategy_registry``)
and imports the strategy module, never the other way round.
"""

from __future__ import annotations

from newcore.registry import Registry
from newcore.strategies.strategy import StrategyRegistry

#: ``Registry`` stays importable from here, as it was when the registry was created here.
__all__ = ["Registry", "StrategyRegistry"]
