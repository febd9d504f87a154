"""The accelerator: a stateless description of one kind of device."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar

import torch

from newcore.registry import Registry, register_own

if TYPE_CHECKING:
    from newcore.plugins.precision.precision_plugin import PrecisionPlugin

#: Every accelerator name the connector accepts, filled by the accelerator classes themselves. It lives with the
#: class its entries subclass, which fills it; ``newcore.accelerators.registry`` is where users import it from.
AcceleratorRegistry: Registry[Accelerator] = Registry("accelerator", "accelerator")


class Accelerator(ABC):
    """One kind of device: how to find it, count it, parse ``devices=`` for it and clean up after it.

    Subclasses register their names by defining :meth:`register_accelerators`; the hook runs when
    the class is created, and only for the class that defines it.
    """

    #: The canonical registry name, e.g. ``"cuda"``.
    name: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        register_own(cls, "register_accelerators", AcceleratorRegistry)

    def setup_device(self, device: torch.device) -> None:
        """Prepare ``device`` in the current process (e.g. make it the current CUDA device)."""

    def teardown(self) -> None:
        """Release the device-level state this accelerator created (caches, environment variables)."""

    @staticmethod
    @abstractmethod
    def parse_devices(devices: Any) -> Any:
        """Turn the user's ``devices=`` value into this accelerator's device specification."""

    @staticmethod
    @abstractmethod
    def get_parallel_devices(devices: Any) -> list[torch.device]:
        """The ``torch.device`` objects for a parsed device specification."""

    @staticmethod
    @abstractmethod
    def auto_device_count() -> int:
        """How many devices ``devices="auto"`` means on this machine."""

    @staticmethod
    @abstractmethod
    def is_available() -> bool:
        """Whether this machine has the device (asked through :func:`newcore.probe.current_probe`)."""

    def default_precision_plugin(self, precision: str) -> PrecisionPlugin | None:
        """A device-specific precision plugin for ``precision`` (``"32"``, ``"16"``, ``"bf16"``, ``"64"``).

        ``None`` leaves the choice to the strategy and then to the generic table.
        """
        return None

    @classmethod
    def register_accelerators(cls, registry: Registry[Accelerator]) -> None:
        """Register this class's names in ``registry``. Define it on each concrete class."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"
