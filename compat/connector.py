"""``compat.AcceleratorConnector``: newcore's connector, taking Lightning 1.5's flags as well."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import newcore
from compat.flags import translate
from compat.properties import LegacyProperties, with_training_type_plugin
from newcore.accelerators import Accelerator
from newcore.connector.torch_flags import Deterministic
from newcore.strategies import Strategy


class AcceleratorConnector(LegacyProperties, newcore.AcceleratorConnector):
    """newcore's connector, accepting the 1.5 flags and answering the 1.5 properties, each with a warning.

    The legacy flags are translated before newcore's first phase (see :mod:`compat.flags`), so the
    selection is the one Lightning 1.5.10 made for them; newcore itself never sees a legacy value.

    Example::

        connector = AcceleratorConnector(gpus=2, accelerator="ddp")  # warns twice: gpus=, accelerator='ddp'
        connector.strategy   # DDPStrategy on cuda:0 and cuda:1
        connector.num_gpus   # 2 (warns: use connector.num_devices)
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
        #: 1.5's ``replace_sampler_ddp`` (newcore's runner calls it ``use_distributed_sampler``).
        self.replace_sampler_ddp = self._legacy.replace_sampler_ddp
        super().__init__(
            sync_batchnorm=sync_batchnorm, benchmark=benchmark, deterministic=deterministic, **flags, **unknown
        )

        # 1.5 code reads ``connector.accelerator.training_type_plugin``.
        with_training_type_plugin(super().accelerator, self.strategy, type(self).__name__)
