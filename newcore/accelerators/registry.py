"""The one registry of accelerator names (``accelerator="cuda"`` and friends)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from newcore.registry import Registry

if TYPE_CHECKING:
    from newcore.accelerators.accelerator import Accelerator

#: Every accelerator name the connector accepts, filled by the accelerator classes themselves.
AcceleratorRegistry: Registry[Accelerator] = Registry("accelerator", "accelerator")
