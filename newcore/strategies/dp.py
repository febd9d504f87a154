"""``torch.nn.DataParallel``: one process drives several GPUs, splitting each batch among them."""

from __future__ import annotations

from torch.nn import DataParallel, Module

from newcore.exceptions import MisconfigurationException
from newcore.registry import Registry
from newcore.strategies.parallel import ParallelStrategy
from newcore.strategies.strategy import Strategy


def _require_cuda(strategy: Strategy) -> None:
    """Refuse a non-CUDA accelerator for ``dp``/``ddp2``, which only split batches across GPUs.

    Lightning 1.6 silently replaced them with ``ddp`` on CPU; newcore says so and lets the user choose.
    """
    from newcore.accelerators.cpu import CPUAccelerator
    from newcore.accelerators.cuda import CUDAAccelerator

    accelerator = strategy.accelerator
    if isinstance(accelerator, CUDAAccelerator):
        return
    if accelerator is None or isinstance(accelerator, CPUAccelerator):
        raise MisconfigurationException(
            f'`{strategy._flag}` is not supported on CPU; pass strategy="ddp" with accelerator="cpu".'
        )
    raise MisconfigurationException(
        f'`{strategy._flag}` needs CUDA GPUs, not {accelerator!r}; pass accelerator="cuda" or another strategy.'
    )


class DataParallelStrategy(ParallelStrategy):
    """Data parallel in one process: each batch is split across the GPUs and the outputs gathered."""

    def check_setup(self) -> None:
        super().check_setup()
        _require_cuda(self)

    def set_world_ranks(self) -> None:
        # One process, whatever the number of GPUs: ranks and world size stay at their single-process values.
        self._global_rank = self._local_rank = self._node_rank = 0
        self._world_size = 1

    def _wrap_module(self, module: Module) -> Module:
        module = super()._wrap_module(module)
        return DataParallel(module, device_ids=[d.index for d in self.parallel_devices or []])

    def unwrap_module(self, module: Module) -> Module:
        return module.module if isinstance(module, DataParallel) else module

    @property
    def distributed_sampler_kwargs(self) -> dict[str, int] | None:
        # DataParallel splits each batch itself; every "replica" must see the full batch.
        return None

    @classmethod
    def register_strategies(cls, registry: Registry[Strategy]) -> None:
        registry.register_table(cls, {"dp": {}})
