"""The one registry of accelerator names (``accelerator="cuda"`` and friends).

The registry is created next to :class:`~newcore.accelerators.accelerator.Accelerator`, whose subclasses register
themselves into it as they are created; this module is its import path and imports the accelerator module, never
the other way round.
"""

from __future__ import annotations

from newcore.accelerators.accelerator import AcceleratorRegistry
from newcore.registry import Registry

#: ``Registry`` stays importable from here, as it was when the registry was created here.
__all__ = ["AcceleratorRegistry", "Registry"]
