"""The Apple-silicon GPU through Metal Performance Shaders."""

from __future__ import annotations

from typing import Any

import torch

from newcore.accelerators.accelerator import Accelerator
from newcore.devices import device, parse_indices
from newcore.probe import current_probe
from newcore.registry import Registry


class MPSAccelerator(Accelerator):
    """The Apple-silicon GPU; a Mac has exactly one, so ``devices`` can only select index 0."""

    name = "mps"

    @staticmethod
    def parse_devices(devices: Any) -> list[int]:
        available = 1 if current_probe().mps_available() else 0
        return parse_indices(devices, accelerator="mps", available=available)

    @staticmethod
    def get_parallel_devices(devices: Any) -> list[torch.device]:
        return [device("mps", i) for i in devices]

    @staticmethod
    def auto_device_count() -> int:
        return 1

    @staticmethod
    def is_available() -> bool:
        return current_probe().mps_available()

    @classmethod
    def register_accelerators(cls, registry: Registry[Accelerator]) -> None:
        registry.register("mps", cls, description="The Apple-silicon GPU through Metal Performance Shaders.")
