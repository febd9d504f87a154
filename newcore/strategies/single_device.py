"""Training on exactly one device in the current process."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import torch

from newcore.registry import Registry
from newcore.strategies.strategy import Strategy

if TYPE_CHECKING:
    from newcore.accelerators.accelerator import Accelerator
    from newcore.plugins.io.checkpoint_plugin import CheckpointIO
    from newcore.plugins.precision.precision_plugin import PrecisionPlugin


class SingleDeviceStrategy(Strategy):
    """One device, one process: the model is moved to the device and nothing is wrapped or launched."""

    default_devices: ClassVar[int | str] = 1

    def __init__(
        self,
        device: str | int | torch.device = "cpu",
        accelerator: Accelerator | None = None,
        checkpoint_io: CheckpointIO | None = None,
        precision_plugin: PrecisionPlugin | None = None,
    ) -> None:
        super().__init__(accelerator=accelerator, checkpoint_io=checkpoint_io, precision_plugin=precision_plugin)
        self._root_device = self._to_device(device)

    @staticmethod
    def _to_device(device: str | int | torch.device) -> torch.device:
        """Normalise ``device`` (an int is a CUDA index, as ``torch.device(0)`` means)."""
        return torch.device(device)

    @property
    def root_device(self) -> torch.device:
        return self._root_device

    @classmethod
    def register_strategies(cls, registry: Registry[Strategy]) -> None:
        registry.register_table(cls, {"single_device": {}})

    def __repr__(self) -> str:
        return f"{type(self).__name__}(device={self._root_device!r})"
