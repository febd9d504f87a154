"""Training on one TPU core (any XLA device) in the current process, through ``torch_xla``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import torch
from torch.optim import Optimizer

from newcore.plugins.io.xla_plugin import XLACheckpointIO
from newcore.registry import Registry
from newcore.strategies import _xla
from newcore.strategies.single_device import SingleDeviceStrategy
from newcore.strategies.strategy import Strategy

if TYPE_CHECKING:
    from newcore.accelerators.accelerator import Accelerator
    from newcore.plugins.io.checkpoint_plugin import CheckpointIO
    from newcore.plugins.precision.precision_plugin import PrecisionPlugin


class SingleTPUStrategy(SingleDeviceStrategy):
    """One TPU core in the current process, e.g. accelerator="tpu" with devices=1 or devices=[5].

    ``debug=True`` exports ``PT_XLA_DEBUG=1`` in :meth:`setup_environment` (never at construction);
    the TPU accelerator's teardown removes it. Checkpoints go through :class:`XLACheckpointIO`.
    """

    supports_xla: ClassVar[bool] = True
    default_accelerator: ClassVar[str | None] = "tpu"

    def __init__(
        self,
        device: str | int | torch.device = 0,
        accelerator: Accelerator | None = None,
        checkpoint_io: CheckpointIO | None = None,
        precision_plugin: PrecisionPlugin | None = None,
        debug: bool = False,
    ) -> None:
        super().__init__(device, accelerator, checkpoint_io, precision_plugin)
        self.debug = debug

    @staticmethod
    def _to_device(device: str | int | torch.device) -> torch.device:
        # An int is an XLA ordinal here, not a CUDA index.
        return torch.device("xla", device) if isinstance(device, int) else torch.device(device)

    @property
    def checkpoint_io(self) -> CheckpointIO:
        if self._checkpoint_io is None:
            self._checkpoint_io = XLACheckpointIO()
        return self._checkpoint_io

    @checkpoint_io.setter
    def checkpoint_io(self, io: CheckpointIO | None) -> None:
        self._checkpoint_io = io

    def check_setup(self) -> None:
        super().check_setup()
        self._require_package("torch_xla", "pip install 'lightning-migrate[xla]'")

    def setup_environment(self) -> None:
        if self.debug:
            _xla.export_debug()
        # Ask torch_xla for the device: it fails here, clearly, if this process cannot address that ordinal.
        self._root_device = _xla.xla_device(self._flag, self._root_device.index)
        super().setup_environment()

    def optimizer_step(self, optimizer: Optimizer, **kwargs: Any) -> Any:
        result = super().optimizer_step(optimizer, **kwargs)
        _xla.step_boundary(self._flag)
        return result

    @classmethod
    def register_strategies(cls, registry: Registry[Strategy]) -> None:
        registry.register_table(cls, {"single_tpu": {}})

    def __repr__(self) -> str:
        return f"{type(self).__name__}(device={self._root_device!r}, debug={self.debug})"
