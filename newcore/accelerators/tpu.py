"""Google TPUs through torch-xla (imported only by the code that runs on them, never here)."""

from __future__ import annotations

import os
from typing import Any

import torch

from newcore.accelerators.accelerator import Accelerator
from newcore.devices import device, parse_tpu
from newcore.exceptions import MisconfigurationException
from newcore.plugins.precision.precision_plugin import PrecisionPlugin
from newcore.plugins.precision.tpu import TPUPrecisionPlugin
from newcore.plugins.precision.tpu_bf16 import TPUBf16PrecisionPlugin
from newcore.probe import current_probe
from newcore.registry import Registry
from newcore.warnings import warn_fallback

#: What the XLA strategies export while they run (``tpu_spawn_debug``/``debug=True``: XLA debug metrics).
#: ``XLA_USE_BF16`` is not here: the bf16 precision plugin restores its previous value itself, and
#: popping it afterwards would wipe a value the user had set before training.
_STRATEGY_VARIABLES = ("PT_XLA_DEBUG",)


class TPUAccelerator(Accelerator):
    """Google TPU cores; ``devices`` is 1 or 8 cores, or one core index such as ``[5]``."""

    name = "tpu"

    def setup_device(self, device: torch.device) -> None:
        if device.type != "xla":
            raise MisconfigurationException(
                f"accelerator='tpu' was asked to set up device {device}; TPU cores are 'xla' devices."
                " Pass the matching `accelerator=` for that device."
            )

    def teardown(self) -> None:
        # A later run in this interpreter (e.g. `trainer.test` after `fit` on CPU) must not inherit XLA debugging.
        # As in Lightning, a PT_XLA_DEBUG the user exported goes too: the strategy cannot tell them apart.
        for name in _STRATEGY_VARIABLES:
            os.environ.pop(name, None)

    @staticmethod
    def parse_devices(devices: Any) -> int | list[int]:
        return parse_tpu(devices, available=current_probe().tpu_device_count())

    @staticmethod
    def get_parallel_devices(devices: Any) -> list[torch.device]:
        if isinstance(devices, int):
            return [device("xla", i) for i in range(devices)]
        return [device("xla", i) for i in devices]

    @staticmethod
    def auto_device_count() -> int:
        # A TPU host has 8 cores; assume that when the probe cannot count them (e.g. before XLA starts).
        return current_probe().tpu_device_count() or 8

    @staticmethod
    def is_available() -> bool:
        return current_probe().tpu_device_count() > 0

    def default_precision_plugin(self, precision: str) -> PrecisionPlugin | None:
        if precision == "32":
            return TPUPrecisionPlugin()
        if precision == "bf16":
            return TPUBf16PrecisionPlugin()
        if precision == "16":
            warn_fallback(
                "You passed `precision=16` with accelerator='tpu', but AMP with float16 is not supported on TPUs."
                " Using `precision='bf16'` instead."
            )
            return TPUBf16PrecisionPlugin()
        if precision == "64":
            raise MisconfigurationException(
                "`accelerator='tpu'` with `precision=64` is not supported: XLA has no float64 training path on TPUs."
                " Pass `precision=32` or `precision='bf16'`."
            )
        return None

    @classmethod
    def register_accelerators(cls, registry: Registry[Accelerator]) -> None:
        registry.register("tpu", cls, description="Google TPU cores through torch-xla.")
