"""The accelerator connector: turns the user's flags into a ready strategy, in three phases.

1. :mod:`~newcore.connector.flags` checks the flags against each other and settles the final flags;
2. :mod:`~newcore.connector.select` chooses accelerator, devices, cluster environment, strategy and precision;
3. :mod:`~newcore.connector.build` builds the strategy, attaches the choices and runs the final checks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch

from newcore.accelerators import Accelerator
from newcore.connector.build import build_strategy
from newcore.connector.flags import Flags, check_flags
from newcore.connector.legacy import reject_legacy_flags
from newcore.connector.select import Selection, select
from newcore.connector.torch_flags import Deterministic, set_torch_flags
from newcore.plugins.environments import ClusterEnvironment
from newcore.plugins.io import CheckpointIO
from newcore.plugins.precision import PrecisionPlugin
from newcore.probe import current_probe
from newcore.strategies import Strategy

__all__ = ["AcceleratorConnector", "Flags", "Selection"]


class AcceleratorConnector:
    """Turn the new-API flags into a strategy with its accelerator, precision, environment and devices.

    Defaults keep Lightning 1.x's behaviour: no flags give one CPU process. Every user mistake is a
    :class:`~newcore.MisconfigurationException` naming the flags; every fallback warns.

    Example::

        connector = AcceleratorConnector(accelerator="gpu", devices=2, precision=16)
        connector.strategy  # DDPSpawnStrategy on cuda:0 and cuda:1 with MixedPrecisionPlugin
    """

    def __init__(
        self,
        *,
        accelerator: str | Accelerator | None = None,
        strategy: str | Strategy | None = None,
        devices: int | str | Sequence[int] | None = None,
        num_nodes: int = 1,
        precision: int | str | None = None,
        plugins: Any = None,
        sync_batchnorm: bool = False,
        benchmark: bool | None = None,
        deterministic: Deterministic = None,
        **legacy: Any,
    ) -> None:
        reject_legacy_flags(type(self).__name__, legacy)
        # Phase 0: torch's global switches.
        set_torch_flags(deterministic, benchmark)
        # Phase 1: validate the flags and settle the final ones.
        self.flags: Flags = check_flags(
            accelerator=accelerator,
            strategy=strategy,
            devices=devices,
            num_nodes=num_nodes,
            precision=precision,
            plugins=plugins,
            sync_batchnorm=sync_batchnorm,
        )
        # Phase 2: choose, on this machine.
        probe = current_probe()
        self.selection: Selection = select(self.flags, probe)
        # Phase 3: build the strategy and attach the choices.
        self.strategy: Strategy = build_strategy(self.flags, self.selection, probe)
        self.deterministic = deterministic
        self.benchmark = torch.backends.cudnn.benchmark

    @property
    def accelerator(self) -> Accelerator:
        accelerator = self.strategy.accelerator
        assert accelerator is not None
        return accelerator

    @property
    def precision_plugin(self) -> PrecisionPlugin:
        return self.strategy.precision_plugin

    @property
    def checkpoint_io(self) -> CheckpointIO:
        return self.strategy.checkpoint_io

    @property
    def cluster_environment(self) -> ClusterEnvironment:
        return getattr(self.strategy, "cluster_environment", None) or self.selection.cluster_environment

    @property
    def parallel_devices(self) -> list[torch.device]:
        devices = getattr(self.strategy, "parallel_devices", None)
        return list(devices) if devices else [self.strategy.root_device]

    @property
    def num_nodes(self) -> int:
        return self.selection.num_nodes

    @property
    def num_devices(self) -> int:
        return len(self.parallel_devices)

    @property
    def is_distributed(self) -> bool:
        return self.strategy.is_distributed

    def __repr__(self) -> str:
        return (
            f"AcceleratorConnector(accelerator={self.selection.accelerator_name!r}, strategy={self.strategy.name!r},"
            f" devices={[str(d) for d in self.parallel_devices]}, num_nodes={self.num_nodes},"
            f" precision={self.precision_plugin.precision!r})"
        )
