"""Everything the connector learns about the machine, behind one object.

Accelerators, the connector and the launchers ask :func:`current_probe` instead of calling
``torch.cuda``/``torch_xla``/``poptorch`` or ``importlib`` directly. Tests swap in a
:class:`FakeProbe` through one shared fixture, so "hardware" is faked only here, at the edge.
Cluster environments read ``os.environ`` directly: tests set real environment variables.

The real probe is lazy: an optional library is looked up only when its question is asked.
"""

from __future__ import annotations

import functools
import importlib.util
import multiprocessing
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field


class Probe:
    """The real machine. Each answer is computed once, on first use."""

    def cuda_device_count(self) -> int:
        return _cuda_device_count()

    def mps_available(self) -> bool:
        return _mps_available()

    def tpu_device_count(self) -> int:
        return _tpu_device_count()

    def ipu_device_count(self) -> int:
        return _ipu_device_count()

    def has_package(self, name: str) -> bool:
        """Whether the optional top-level package ``name`` is importable (without importing it)."""
        return _has_package(name)

    def is_interactive(self) -> bool:
        """A REPL, IPython or Jupyter kernel, or ``python -i``: where spawned/scripted launches cannot work."""
        return hasattr(sys, "ps1") or bool(sys.flags.interactive)

    def fork_available(self) -> bool:
        return "fork" in multiprocessing.get_all_start_methods()


@dataclass(frozen=True)
class FakeProbe(Probe):
    """A machine described by value, for tests and what-if selection."""

    cuda: int = 0
    mps: bool = False
    tpu: int = 0
    ipu: int = 0
    packages: frozenset[str] = field(default_factory=frozenset)
    interactive: bool = False
    fork: bool = True

    def cuda_device_count(self) -> int:
        return self.cuda

    def mps_available(self) -> bool:
        return self.mps

    def tpu_device_count(self) -> int:
        return self.tpu

    def ipu_device_count(self) -> int:
        return self.ipu

    def has_package(self, name: str) -> bool:
        return name in self.packages

    def is_interactive(self) -> bool:
        return self.interactive

    def fork_available(self) -> bool:
        return self.fork


_REAL = Probe()
_current: Probe = _REAL


def current_probe() -> Probe:
    """The probe in force: the real machine unless a test installed a fake one."""
    return _current


@contextmanager
def use_probe(probe: Probe) -> Iterator[Probe]:
    """Install ``probe`` for the duration of the ``with`` block."""
    global _current
    previous, _current = _current, probe
    try:
        yield probe
    finally:
        _current = previous


@functools.cache
def _has_package(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


@functools.cache
def _cuda_device_count() -> int:
    import torch

    return torch.cuda.device_count() if torch.cuda.is_available() else 0


@functools.cache
def _mps_available() -> bool:
    import torch

    backend = getattr(torch.backends, "mps", None)
    return bool(backend is not None and backend.is_available())


@functools.cache
def _tpu_device_count() -> int:
    if not _has_package("torch_xla"):
        return 0
    try:
        import torch_xla.runtime as xr

        if xr.device_type() != "TPU":
            return 0
        return int(xr.global_runtime_device_count())
    except Exception:  # a broken or device-less XLA install means "no TPU", not a crash
        return 0


@functools.cache
def _ipu_device_count() -> int:
    if not _has_package("poptorch"):
        return 0
    try:
        import poptorch

        return int(poptorch.ipuHardwareVersion() != -1 and poptorch.ipuHardwareIsAvailable())
    except Exception:  # same reasoning as for XLA
        return 0
