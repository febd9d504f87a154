"""Graphcore IPUs through poptorch (imported only by the code that runs on them, never here)."""

from __future__ import annotations

from typing import Any

import torch

from newcore.accelerators.accelerator import Accelerator
from newcore.devices import device, parse_count
from newcore.plugins.precision.ipu import IPUPrecisionPlugin
from newcore.plugins.precision.precision_plugin import PrecisionPlugin
from newcore.probe import current_probe
from newcore.registry import Registry

#: IPUs ship in groups of four (an M2000 pod unit), so that is what ``devices="auto"`` asks for.
_IPUS_PER_UNIT = 4


class IPUAccelerator(Accelerator):
    """Graphcore IPUs; ``devices=N`` asks poptorch for N IPUs."""

    name = "ipu"

    @staticmethod
    def parse_devices(devices: Any) -> int:
        return parse_count(devices, accelerator="ipu", auto=_IPUS_PER_UNIT)

    @staticmethod
    def get_parallel_devices(devices: Any) -> list[torch.device]:
        return [device("ipu", i) for i in range(int(devices))]

    @staticmethod
    def auto_device_count() -> int:
        return _IPUS_PER_UNIT

    @staticmethod
    def is_available() -> bool:
        return current_probe().ipu_device_count() > 0

    def default_precision_plugin(self, precision: str) -> PrecisionPlugin | None:
        return IPUPrecisionPlugin(precision)

    @classmethod
    def register_accelerators(cls, registry: Registry[Accelerator]) -> None:
        registry.register("ipu", cls, description="Graphcore IPUs through poptorch.")
