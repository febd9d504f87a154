"""The host CPU."""

from __future__ import annotations

from typing import Any

import torch

from newcore.accelerators.accelerator import Accelerator
from newcore.devices import device, parse_count
from newcore.exceptions import MisconfigurationException
from newcore.registry import Registry


class CPUAccelerator(Accelerator):
    """The host CPU; ``devices=N`` means N processes."""

    name = "cpu"

    def setup_device(self, device: torch.device) -> None:
        if device.type != "cpu":
            raise MisconfigurationException(
                f"accelerator='cpu' was asked to set up device {device}; the CPU accelerator only runs on 'cpu'."
                " Pass the matching `accelerator=` for that device."
            )

    @staticmethod
    def parse_devices(devices: Any) -> int:
        return parse_count(devices, accelerator="cpu", auto=1)

    @staticmethod
    def get_parallel_devices(devices: Any) -> list[torch.device]:
        return [device("cpu")] * int(devices)

    @staticmethod
    def auto_device_count() -> int:
        # One process: more CPU processes rarely help and each would compete for the same cores.
        return 1

    @staticmethod
    def is_available() -> bool:
        return True

    @classmethod
    def register_accelerators(cls, registry: Registry[Accelerator]) -> None:
        registry.register("cpu", cls, description="The host CPU; `devices=N` starts N processes.")
