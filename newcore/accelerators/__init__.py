"""Accelerators: one class per kind of device. Importing this package registers every accelerator name."""

from newcore.accelerators.accelerator import Accelerator
from newcore.accelerators.cpu import CPUAccelerator
from newcore.accelerators.cuda import CUDAAccelerator
from newcore.accelerators.ipu import IPUAccelerator
from newcore.accelerators.mps import MPSAccelerator
from newcore.accelerators.registry import AcceleratorRegistry
from newcore.accelerators.tpu import TPUAccelerator

__all__ = [
    "Accelerator",
    "AcceleratorRegistry",
    "CPUAccelerator",
    "CUDAAccelerator",
    "IPUAccelerator",
    "MPSAccelerator",
    "TPUAccelerator",
]
