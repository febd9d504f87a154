"""``torch.nn.parallel.DistributedDataParallel``, one process per device, started by the script itself."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

import torch
from torch.nn import Module
from torch.nn.parallel import DistributedDataParallel

from newcore.launchers.subprocess_script import _SubprocessScriptLauncher
from newcore.registry import Registry
from newcore.strategies.parallel import ParallelStrategy
from newcore.strategies.strategy import Strategy

if TYPE_CHECKING:
    from newcore.accelerators.accelerator import Accelerator
    from newcore.plugins.environments.cluster_environment import ClusterEnvironment
    from newcore.plugins.io.checkpoint_plugin import CheckpointIO
    from newcore.plugins.precision.precision_plugin import PrecisionPlugin

#: ``torch.distributed``'s own default; a hung collective fails after this long instead of never.
DEFAULT_PROCESS_GROUP_TIMEOUT = timedelta(minutes=30)


class _DDPBase(ParallelStrategy):
    """What DDP launched by the script and DDP launched by :mod:`multiprocessing` share.

    ``DDPSpawnStrategy`` is deliberately not a ``DDPStrategy`` (as in Lightning 1.6), so the shared
    process-group and wrapper settings live here rather than in either of them.
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
        find_unused_parameters: bool = True,
        **ddp_kwargs: Any,
    ) -> None:
        super().__init__(
            accelerator=accelerator,
            parallel_devices=parallel_devices,
            cluster_environment=cluster_environment,
            checkpoint_io=checkpoint_io,
            precision_plugin=precision_plugin,
        )
        self._process_group_backend = process_group_backend
        self.timeout = timeout
        # Lightning 1.x default (2.0 flipped it): safe for models with unused branches, slower otherwise.
        self.find_unused_parameters = find_unused_parameters
        self._ddp_kwargs = ddp_kwargs

    @property
    def process_group_backend(self) -> str:
        """The ``torch.distributed`` backend: the one passed in, else NCCL on CUDA and Gloo elsewhere."""
        if self._process_group_backend is not None:
            return self._process_group_backend
        return "nccl" if self.root_device.type == "cuda" else "gloo"

    @property
    def ddp_kwargs(self) -> dict[str, Any]:
        """The keyword arguments the model will be wrapped with in ``DistributedDataParallel``."""
        return {"find_unused_parameters": self.find_unused_parameters, **self._ddp_kwargs}

    def setup_environment(self) -> None:
        super().setup_environment()
        self._init_process_group(self.process_group_backend, self.timeout)

    def _wrap_module(self, module: Module) -> Module:
        module = super()._wrap_module(module)
        device = self.root_device
        # DDP wants the device index for single-device GPU modules and nothing for CPU ones.
        device_ids = [device.index] if device.index is not None else None
        return DistributedDataParallel(module, device_ids=device_ids, **self.ddp_kwargs)

    def unwrap_module(self, module: Module) -> Module:
        return module.module if isinstance(module, DistributedDataParallel) else module


class DDPStrategy(_DDPBase):
    """Distributed data parallel with one process per device; the script re-runs itself for each extra rank."""

    def _configure_launcher(self) -> None:
        env = self.cluster_environment
        if env is not None and env.creates_processes_externally:
            # SLURM, torchelastic, ... already started every rank: launching again would double them.
            self._launcher = None
        else:
            self._launcher = _SubprocessScriptLauncher(env, self.num_processes, self.num_nodes)

    @classmethod
    def register_strategies(cls, registry: Registry[Strategy]) -> None:
        # The `_true` name is Lightning 2.x's (whose default flipped to False); here it spells out the default.
        registry.register_table(
            cls,
            {
                "ddp": {},
                "ddp_find_unused_parameters_false": {"find_unused_parameters": False},
                "ddp_find_unused_parameters_true": {"find_unused_parameters": True},
            },
        )
