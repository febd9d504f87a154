"""Sharded DDP whose workers are created with :mod:`multiprocessing`."""

from __future__ import annotations

from newcore.registry import Registry
from newcore.strategies.ddp_spawn import DDPSpawnStrategy
from newcore.strategies.sharded import _ShardingMixin, _ZeroMixin
from newcore.strategies.strategy import Strategy


class DDPSpawnShardedStrategy(_ShardingMixin, _ZeroMixin, DDPSpawnStrategy):
    """Spawned DDP with optimizer state and gradients sharded across the workers to save memory."""

    @classmethod
    def register_strategies(cls, registry: Registry[Strategy]) -> None:
        registry.register_table(
            cls,
            {
                "ddp_sharded_spawn": {},
                "ddp_sharded_spawn_find_unused_parameters_false": {"find_unused_parameters": False},
            },
        )
