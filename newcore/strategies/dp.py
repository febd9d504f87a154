"""``torch.nn.DataParallel``: one process drives several GPUs, splitting each batch among them."""

from __future__ import annotations

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

    @classmethod
    def register_strategies(cls, registry: Registry[Strategy]) -> None:
        registry.register_table(cls, {"dp": {}})
