"""Strategies that train on several devices or processes."""

from __future__ import annotations

from typing import TYPE_CHECKING

import torch

from newcore.strategies.strategy import Strategy

if TYPE_CHECKING:
    from newcore.accelerators.accelerator import Accelerator
    from newcore.plugins.environments.cluster_environment import ClusterEnvironment
    from newcore.plugins.io.checkpoint_plugin import CheckpointIO
    from newcore.plugins.layer_sync import LayerSync
    from newcore.plugins.precision.precision_plugin import PrecisionPlugin


class ParallelStrategy(Strategy):
    """Base of strategies that span several devices: they own the device list and the cluster environment."""

    is_distributed = True

    def __init__(
        self,
        accelerator: Accelerator | None = None,
        parallel_devices: list[torch.device] | None = None,
        cluster_environment: ClusterEnvironment | None = None,
        checkpoint_io: CheckpointIO | None = None,
        precision_plugin: PrecisionPlugin | None = None,
    ) -> None:
        super().__init__(accelerator=accelerator, checkpoint_io=checkpoint_io, precision_plugin=precision_plugin)
        self.parallel_devices = parallel_devices
        self.cluster_environment = cluster_environment
        self.num_nodes = 1
        self.layer_sync: LayerSync | None = None
        self._global_rank = 0
        self._local_rank = 0
        self._node_rank = 0
        self._world_size = 1

    @property
    def num_processes(self) -> int:
        return len(self.parallel_devices) if self.parallel_devices is not None else 0

    @property
    def root_device(self) -> torch.device:
        if not self.parallel_devices:
            raise RuntimeError(f"{type(self).__name__} has no devices yet; the connector attaches them.")
        return self.parallel_devices[self.local_rank % len(self.parallel_devices)]

    def set_world_ranks(self) -> None:
        """Compute ranks from the cluster environment (or the node layout when we launch the processes)."""
        env = self.cluster_environment
        if env is not None and env.creates_processes_externally:
            self._global_rank, self._local_rank = env.global_rank(), env.local_rank()
            self._node_rank, self._world_size = env.node_rank(), env.world_size()
            return
        self._node_rank = env.node_rank() if env is not None else 0
        self._world_size = self.num_nodes * self.num_processes
        self._global_rank = self._node_rank * self.num_processes + self._local_rank
        if env is not None:
            env.set_global_rank(self._global_rank)
            env.set_world_size(self._world_size)

    @property
    def global_rank(self) -> int:
        return self._global_rank

    @property
    def local_rank(self) -> int:
        return self._local_rank

    @property
    def node_rank(self) -> int:
        return self._node_rank

    @property
    def world_size(self) -> int:
        return self._world_size

    def teardown(self) -> None:
        if self.cluster_environment is not None:
            self.cluster_environment.teardown()
        super().teardown()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(parallel_devices={self.parallel_devices}, num_nodes={self.num_nodes})"
