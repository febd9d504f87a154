"""NVIDIA GPUs through CUDA."""

from __future__ import annotations

from typing import Any

import torch

from newcore.accelerators.accelerator import Accelerator
from newcore.devices import device, parse_indices
from newcore.exceptions import MisconfigurationException
from newcore.probe import current_probe
from newcore.registry import Registry


class CUDAAccelerator(Accelerator):
    """NVIDIA GPUs; ``devices`` selects a count or explicit GPU indices."""

    name = "cuda"

    def setup_device(self, device: torch.device) -> None:
        if device.type != "cuda":
            raise MisconfigurationException(
                f"accelerator='cuda' was asked to set up device {device}; it only runs on 'cuda' devices."
                " Pass the matching `accelerator=` for that device."
            )
        # Later allocations without an explicit index (NCCL buffers, `.cuda()`) must land on this process's GPU.
        torch.cuda.set_device(device)

    def teardown(self) -> None:
        # Asking an uninitialised CUDA runtime to empty its cache would create a context just to free nothing.
        if torch.cuda.is_initialized():  # type: ignore[no-untyped-call]
            torch.cuda.empty_cache()

    @staticmethod
    def parse_devices(devices: Any) -> list[int]:
        return parse_indices(devices, accelerator="cuda", available=current_probe().cuda_device_count())

    @staticmethod
    def get_parallel_devices(devices: Any) -> list[torch.device]:
        return [device("cuda", i) for i in devices]

    @staticmethod
    def auto_device_count() -> int:
        return current_probe().cuda_device_count()

    @staticmethod
    def is_available() -> bool:
        return current_probe().cuda_device_count() > 0

    @classmethod
    def register_accelerators(cls, registry: Registry[Accelerator]) -> None:
        registry.register("cuda", cls, description="NVIDIA GPUs through CUDA.")
        registry.register("gpu", cls, description="NVIDIA GPUs through CUDA (the Lightning 1.x name for 'cuda').")
