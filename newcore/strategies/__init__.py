"""Strategies, and the registry of their names.

Importing this package imports every strategy module, and each class registers its own names as it
is created, so ``StrategyRegistry`` is complete once ``newcore.strategies`` is imported.
Build a strategy from a name with ``StrategyRegistry.get(name)``, which also sets
``registered_name`` so that messages quote the name the user chose.
"""

from newcore.strategies.ddp import DDPStrategy
from newcore.strategies.ddp2 import DDP2Strategy
from newcore.strategies.ddp_spawn import DDPSpawnStrategy
from newcore.strategies.deepspeed import DeepSpeedStrategy
from newcore.strategies.dp import DataParallelStrategy
from newcore.strategies.fully_sharded import DDPFullyShardedStrategy
from newcore.strategies.horovod import HorovodStrategy
from newcore.strategies.ipu import IPUStrategy
from newcore.strategies.parallel import ParallelStrategy
from newcore.strategies.sharded import DDPShardedStrategy
from newcore.strategies.sharded_spawn import DDPSpawnShardedStrategy
from newcore.strategies.single_device import SingleDeviceStrategy
from newcore.strategies.single_tpu import SingleTPUStrategy
from newcore.strategies.strategy import Strategy
from newcore.strategies.strategy_registry import StrategyRegistry
from newcore.strategies.tpu_spawn import TPUSpawnStrategy

__all__ = [
    "DDP2Strategy",
    "DDPFullyShardedStrategy",
    "DDPShardedStrategy",
    "DDPSpawnShardedStrategy",
    "DDPSpawnStrategy",
    "DDPStrategy",
    "DataParallelStrategy",
    "DeepSpeedStrategy",
    "HorovodStrategy",
    "IPUStrategy",
    "ParallelStrategy",
    "SingleDeviceStrategy",
    "SingleTPUStrategy",
    "Strategy",
    "StrategyRegistry",
    "TPUSpawnStrategy",
]
