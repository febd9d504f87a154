"""Fully sharded data parallel: parameters, gradients and optimizer state all sharded (ZeRO stage 3 style)."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

import torch

from newcore.registry import Registry
from newcore.strategies.ddp import DEFAULT_PROCESS_GROUP_TIMEOUT, DDPStrategy
from newcore.strategies.sharded import _ShardingMixin
from newcore.strategies.strategy import Strategy

if TYPE_CHECKING:
    from newcore.accelerators.accelerator import Accelerator
    from newcore.plugins.environments.cluster_environment import ClusterEnvironment
    from newcore.plugins.io.checkpoint_plugin import CheckpointIO
    from newcore.plugins.precision.precision_plugin import PrecisionPlugin


class DDPFullyShardedStrategy(_ShardingMixin, DDPStrategy):
    """Fully sharded data parallel: each process holds only its shard of parameters, gradients and optimizer state.

    Lightning 1.6 backed it with FairScale; newcore will wrap ``torch.distributed.fsdp`` instead.
    ``fsdp_kwargs`` are passed to the FSDP wrapper then.
    """

    def __init__(
        self,
        accelerator: Accelerator | None = None,
        parallel_devices: list[torch.device] | None = None,
        cluster_environment: ClusterEnvironment | None = None,
        checkpoint_io: CheckpointIO | None = None,
        precision_plugin: PrecisionPlugin | None = None,
        process_group_backend: str | None = None,
        timeout: timedelta = DEFAULT_PROCESS_GROUP_TIMEOUT,
        cpu_offload: bool = False,
        **fsdp_kwargs: Any,
    ) -> None:
        super().__init__(
            accelerator=accelerator,
            parallel_devices=parallel_devices,
            cluster_environment=cluster_environment,
            checkpoint_io=checkpoint_io,
            precision_plugin=precision_plugin,
            process_group_backend=process_group_backend,
            timeout=timeout,
        )
        self.cpu_offload = cpu_offload
        self.fsdp_kwargs = fsdp_kwargs

    @classmethod
    def _mixed_precision_plugin(cls, precision: str, device_type: str) -> PrecisionPlugin:
        from newcore.plugins.precision.fully_sharded_native_amp import FullyShardedMixedPrecisionPlugin

        return FullyShardedMixedPrecisionPlugin(precision, device_type)

    @classmethod
    def register_strategies(cls, registry: Registry[Strategy]) -> None:
        registry.register_table(cls, {"ddp_fully_sharded": {}, "fsdp": {}})
