"""``compat.Runner``: newcore's Runner, taking Lightning 1.5's flags and answering its properties."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from datetime import timedelta
from typing import Any

from torch.utils.data import DataLoader

from compat._warn import as_rank
from compat.flags import translate
from compat.properties import LegacyProperties, with_training_type_plugin
from newcore.accelerators import Accelerator
from newcore.connector.torch_flags import Deterministic
from newcore.runner import Runner as _NewRunner
from newcore.strategies import Strategy


class Runner(LegacyProperties, _NewRunner):
    """newcore's Runner with the 1.5 flags translated exactly as :class:`compat.AcceleratorConnector` does.

    ``replace_sampler_ddp=False`` keeps the loaders' own samplers in :meth:`setup_dataloaders`, as 1.5 did.

    Example::

        runner = Runner(gpus=2, accelerator="ddp")  # warns: gpus=, accelerator='ddp'
        runner.launch(train)
    """

    def __init__(
        self,
        *,
        accelerator: str | Accelerator | Strategy | None = None,
        strategy: str | Strategy | None = None,
        devices: int | str | Sequence[int] | None = None,
        num_nodes: int = 1,
        precision: int | str | None = None,
        plugins: Any = None,
        sync_batchnorm: bool = False,
        benchmark: bool | None = None,
        deterministic: Deterministic = None,
        timeout: timedelta | float | None = None,
        gpus: int | str | Sequence[int] | None = None,
        tpu_cores: int | str | Sequence[int] | None = None,
        ipus: int | None = None,
        num_processes: int | None = None,
        distributed_backend: str | None = None,
        amp_backend: str | None = None,
        amp_level: str | None = None,
        auto_select_gpus: bool | None = None,
        replace_sampler_ddp: bool | None = None,
        **unknown: Any,
    ) -> None:
        flags, self._legacy = translate(
            type(self).__name__,
            {
                "accelerator": accelerator,
                "strategy": strategy,
                "devices": devices,
                "num_nodes": num_nodes,
                "precision": precision,
                "plugins": plugins,
                "gpus": gpus,
                "tpu_cores": tpu_cores,
                "ipus": ipus,
                "num_processes": num_processes,
                "distributed_backend": distributed_backend,
                "amp_backend": amp_backend,
                "amp_level": amp_level,
                "auto_select_gpus": auto_select_gpus,
                "replace_sampler_ddp": replace_sampler_ddp,
            },
        )
        super().__init__(
            sync_batchnorm=sync_batchnorm,
            benchmark=benchmark,
            deterministic=deterministic,
            timeout=timeout,
            **flags,
            **unknown,
        )
        accelerator_object = self.strategy.accelerator
        if accelerator_object is not None:  # 1.5 code reads ``trainer.accelerator.training_type_plugin``
            with_training_type_plugin(accelerator_object, self.strategy, type(self).__name__)

    def launch(self, fn: Callable[..., Any] | None = None, *args: Any, **kwargs: Any) -> Any:
        """As newcore's; in every process ``fn`` runs in, compat warns from global rank zero only."""
        if fn is None:  # the processes exist already (torchrun, SLURM): their environment names the rank
            return super().launch()
        return super().launch(functools.partial(_as_own_rank, fn), *args, **kwargs)

    @property
    def accelerator(self) -> Accelerator | None:
        """The strategy's accelerator (the Lightning 1.6 ``trainer.accelerator``)."""
        return self.strategy.accelerator

    def setup_dataloaders(
        self, *loaders: DataLoader[Any], use_distributed_sampler: bool = True, move_to_device: bool = True
    ) -> Any:
        """As newcore's, but ``replace_sampler_ddp=False`` leaves every loader as it is (Lightning 1.5)."""
        if self._legacy.replace_sampler_ddp:
            return super().setup_dataloaders(
                *loaders, use_distributed_sampler=use_distributed_sampler, move_to_device=move_to_device
            )
        self._require_process("setup_dataloaders")
        return loaders[0] if len(loaders) == 1 else tuple(loaders)


def _as_own_rank(fn: Callable[..., Any], runner: Runner, *args: Any, **kwargs: Any) -> Any:
    # Module level, so that spawn pickles it (with ``fn``) by name; the rank is the worker's strategy's.
    with as_rank(runner.global_rank):
        return fn(runner, *args, **kwargs)
