"""Graphcore IPUs through ``poptorch``: the model is compiled and replicated over the IPUs of one process."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import torch

from newcore.exceptions import MisconfigurationException
from newcore.registry import Registry
from newcore.strategies.parallel import ParallelStrategy
from newcore.strategies.strategy import Strategy

if TYPE_CHECKING:
    from newcore.accelerators.accelerator import Accelerator
    from newcore.plugins.environments.cluster_environment import ClusterEnvironment
    from newcore.plugins.io.checkpoint_plugin import CheckpointIO
    from newcore.plugins.precision.precision_plugin import PrecisionPlugin


class IPUStrategy(ParallelStrategy):
    """Graphcore IPUs: poptorch compiles the model and replicates it over the IPUs.

    ``training_opts``/``inference_opts`` are ``poptorch.Options``; they are built (and ``autoreport``
    exported to ``POPLAR_ENGINE_OPTIONS``) when training starts, never at construction.
    """

    default_accelerator: ClassVar[str | None] = "ipu"

    def __init__(
        self,
        accelerator: Accelerator | None = None,
        device_iterations: int = 1,
        autoreport: bool = False,
        autoreport_dir: str | None = None,
        parallel_devices: list[torch.device] | None = None,
        cluster_environment: ClusterEnvironment | None = None,
        checkpoint_io: CheckpointIO | None = None,
        precision_plugin: PrecisionPlugin | None = None,
        training_opts: Any = None,
        inference_opts: Any = None,
    ) -> None:
        super().__init__(
            accelerator=accelerator,
            parallel_devices=parallel_devices,
            cluster_environment=cluster_environment,
            checkpoint_io=checkpoint_io,
            precision_plugin=precision_plugin,
        )
        self.device_iterations = device_iterations
        self.autoreport = autoreport
        self.autoreport_dir = autoreport_dir
        self.training_opts = training_opts
        self.inference_opts = inference_opts

    def check_setup(self) -> None:
        super().check_setup()
        self._require_package(
            "poptorch",
            "pip install <Poplar SDK directory>/poptorch-*.whl",
            hint="poptorch is not on PyPI: it ships with Graphcore's Poplar SDK, which must be installed first.",
        )
        from newcore.accelerators.ipu import IPUAccelerator

        if not isinstance(self.accelerator, IPUAccelerator):
            raise MisconfigurationException(
                f"`{self._flag}` runs only on Graphcore IPUs, not {self.accelerator!r}; pass accelerator='ipu'."
            )

    def setup_environment(self) -> None:
        self.check_setup()  # a clear error without poptorch, also for a strategy built by hand
        raise MisconfigurationException(
            f"`{self._flag}`: training on IPUs through the Runner is not implemented yet; use poptorch directly."
        )

    @classmethod
    def register_strategies(cls, registry: Registry[Strategy]) -> None:
        registry.register_table(cls, {"ipu_strategy": {}})
