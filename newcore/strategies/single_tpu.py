"""Training on one TPU core through ``torch_xla``."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import torch

from newcore.registry import Registry
from newcore.strategies.single_device import SingleDeviceStrategy
from newcore.strategies.strategy import Strategy

if TYPE_CHECKING:
    from newcore.accelerators.accelerator import Accelerator
    from newcore.plugins.io.checkpoint_plugin import CheckpointIO
    from newcore.plugins.precision.precision_plugin import PrecisionPlugin


class SingleTPUStrategy(SingleDeviceStrategy):
    """One TPU core in the current process, e.g. accelerator="tpu" with devices=1 or devices=[5].

    ``PT_XLA_DEBUG`` for debugging is set when training starts, never at construction.
    """

    supports_xla: ClassVar[bool] = True
    default_accelerator: ClassVar[str | None] = "tpu"

    def __init__(
        self,
        device: str | int | torch.device = 0,
        accelerator: Accelerator | None = None,
        checkpoint_io: CheckpointIO | None = None,
        precision_plugin: PrecisionPlugin | None = None,
    ) -> None:
        super().__init__(device, accelerator, checkpoint_io, precision_plugin)

    @staticmethod
    def _to_device(device: str | int | torch.device) -> torch.device:
        # An int is an XLA ordinal here, not a CUDA index.
        return torch.device("xla", device) if isinstance(device, int) else torch.device(device)

    def check_setup(self) -> None:
        super().check_setup()
        self._require_package("torch_xla", "pip install 'lightning-migrate[xla]'")

    @classmethod
    def register_strategies(cls, registry: Registry[Strategy]) -> None:
        registry.register_table(cls, {"single_tpu": {}})
