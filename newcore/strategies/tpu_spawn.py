"""TPU training with one forked process per TPU core, through ``torch_xla``."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import torch

from newcore.launchers.xla_spawn import _XLASpawnLauncher
from newcore.registry import Registry
from newcore.strategies.ddp_spawn import DDPSpawnStrategy
from newcore.strategies.strategy import Strategy

if TYPE_CHECKING:
    from newcore.accelerators.accelerator import Accelerator
    from newcore.plugins.io.checkpoint_plugin import CheckpointIO
    from newcore.plugins.precision.precision_plugin import PrecisionPlugin


class TPUSpawnStrategy(DDPSpawnStrategy):
    """Data parallel over TPU cores: torch_xla forks one process per core and syncs them over XLA.

    ``debug=True`` turns on ``PT_XLA_DEBUG`` when training starts (never at construction, so that
    building a strategy has no side effects on the environment).
    """

    supports_xla: ClassVar[bool] = True
    default_accelerator: ClassVar[str | None] = "tpu"

    def __init__(
        self,
        accelerator: Accelerator | None = None,
        parallel_devices: list[torch.device] | None = None,
        checkpoint_io: CheckpointIO | None = None,
        precision_plugin: PrecisionPlugin | None = None,
        debug: bool = False,
    ) -> None:
        # XLA always forks its workers (see _XLASpawnLauncher) and brings its own rendezvous.
        super().__init__(
            accelerator=accelerator,
            parallel_devices=parallel_devices,
            checkpoint_io=checkpoint_io,
            precision_plugin=precision_plugin,
            start_method="fork",
        )
        self.debug = debug

    def _configure_launcher(self) -> None:
        self._launcher = _XLASpawnLauncher(self)

    def check_setup(self) -> None:
        # torch_xla first: without it, nothing else about this strategy matters.
        self._require_package("torch_xla", "pip install 'lightning-migrate[xla]'")
        super().check_setup()

    @classmethod
    def register_strategies(cls, registry: Registry[Strategy]) -> None:
        registry.register_table(cls, {"tpu_spawn": {}, "tpu_spawn_debug": {"debug": True}})

    def __repr__(self) -> str:
        return f"{type(self).__name__}(parallel_devices={self.parallel_devices}, debug={self.debug})"
