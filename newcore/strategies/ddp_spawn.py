"""DDP whose worker processes are created with :mod:`multiprocessing` (``spawn`` or ``fork``)."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

import torch

from newcore.exceptions import MisconfigurationException
from newcore.launchers.spawn import _SpawnLauncher
from newcore.probe import current_probe
from newcore.registry import Registry
from newcore.strategies.ddp import DEFAULT_PROCESS_GROUP_TIMEOUT, _DDPBase
from newcore.strategies.strategy import Strategy

if TYPE_CHECKING:
    from newcore.accelerators.accelerator import Accelerator
    from newcore.plugins.environments.cluster_environment import ClusterEnvironment
    from newcore.plugins.io.checkpoint_plugin import CheckpointIO
    from newcore.plugins.precision.precision_plugin import PrecisionPlugin

START_METHODS = ("spawn", "fork", "forkserver")


class DDPSpawnStrategy(_DDPBase):
    """Distributed data parallel with one worker process per device, created by Python's multiprocessing."""

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
        start_method: str = "spawn",
        **ddp_kwargs: Any,
    ) -> None:
        super().__init__(
            accelerator=accelerator,
            parallel_devices=parallel_devices,
            cluster_environment=cluster_environment,
            checkpoint_io=checkpoint_io,
            precision_plugin=precision_plugin,
            process_group_backend=process_group_backend,
            timeout=timeout,
            find_unused_parameters=find_unused_parameters,
            **ddp_kwargs,
        )
        if start_method not in START_METHODS:
            raise MisconfigurationException(
                f"`start_method={start_method!r}` is not a multiprocessing start method; use one of {START_METHODS}."
            )
        self._start_method = start_method

    @property
    def start_method(self) -> str:
        """The :mod:`multiprocessing` start method of the workers."""
        return self._start_method

    def _configure_launcher(self) -> None:
        self._launcher = _SpawnLauncher(self, start_method=self._start_method)

    def check_setup(self) -> None:
        super().check_setup()
        if self._start_method == "fork" and not current_probe().fork_available():
            raise MisconfigurationException(
                f"`{self._flag}` starts its workers by forking, which this platform does not support."
                " Use `strategy='ddp_spawn'` instead."
            )

    @classmethod
    def register_strategies(cls, registry: Registry[Strategy]) -> None:
        # Every row spelled out: Lightning 1.7.0 built these in one loop and gave the plain names
        # find_unused_parameters=False by mistake.
        # The `_true` names are Lightning 2.x's (whose default flipped to False); here they spell out the default.
        no_search, search = {"find_unused_parameters": False}, {"find_unused_parameters": True}
        registry.register_table(
            cls,
            {
                "ddp_spawn": {},
                "ddp_spawn_find_unused_parameters_false": no_search,
                "ddp_spawn_find_unused_parameters_true": search,
                "ddp_fork": {"start_method": "fork"},
                "ddp_fork_find_unused_parameters_false": {"start_method": "fork", **no_search},
                "ddp_fork_find_unused_parameters_true": {"start_method": "fork", **search},
                "ddp_notebook": {"start_method": "fork"},
                "ddp_notebook_find_unused_parameters_false": {"start_method": "fork", **no_search},
                "ddp_notebook_find_unused_parameters_true": {"start_method": "fork", **search},
            },
        )

    def __repr__(self) -> str:
        return f"{type(self).__name__}(parallel_devices={self.parallel_devices}, start_method={self._start_method!r})"
