"""The strategy: how a model is placed, wrapped and kept in sync across devices and processes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import torch

from newcore.exceptions import MissingBackendError
from newcore.probe import current_probe
from newcore.registry import Registry, register_own
from newcore.strategies.strategy_registry import StrategyRegistry

if TYPE_CHECKING:
    from newcore.accelerators.accelerator import Accelerator
    from newcore.launchers.launcher import Launcher
    from newcore.plugins.io.checkpoint_plugin import CheckpointIO
    from newcore.plugins.precision.precision_plugin import PrecisionPlugin


class Strategy:
    """Base of all strategies.

    The connector gives a strategy its accelerator, precision plugin and CheckpointIO after
    construction, unless the user already passed them to the constructor; a value set here by the
    user always wins and a conflicting flag is an error.

    Subclasses register their names by defining :meth:`register_strategies`; the hook runs when the
    class is created and only for the class that defines it, so ``class MyDDP(DDPStrategy): pass``
    registers nothing until its author registers it (``StrategyRegistry.register("my_ddp", MyDDP)``).
    """

    #: Whether the strategy runs on XLA devices (the TPU accelerator accepts only these).
    supports_xla: ClassVar[bool] = False
    #: The accelerator this strategy implies when the user names the strategy but no accelerator.
    default_accelerator: ClassVar[str | None] = None
    #: Whether the strategy spans several processes or devices.
    is_distributed: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        register_own(cls, "register_strategies", StrategyRegistry)

    def __init__(
        self,
        accelerator: Accelerator | None = None,
        checkpoint_io: CheckpointIO | None = None,
        precision_plugin: PrecisionPlugin | None = None,
    ) -> None:
        self._accelerator = accelerator
        self._checkpoint_io = checkpoint_io
        self._precision_plugin = precision_plugin
        self._launcher: Launcher | None = None
        #: The registry name this instance was built from, if any (used in messages).
        self.registered_name: str | None = None

    # -- what the connector attaches ------------------------------------------------------------

    @property
    def accelerator(self) -> Accelerator | None:
        return self._accelerator

    @accelerator.setter
    def accelerator(self, accelerator: Accelerator | None) -> None:
        self._accelerator = accelerator

    @property
    def precision_plugin(self) -> PrecisionPlugin:
        if self._precision_plugin is None:
            from newcore.plugins.precision.precision_plugin import PrecisionPlugin

            self._precision_plugin = PrecisionPlugin()
        return self._precision_plugin

    @precision_plugin.setter
    def precision_plugin(self, plugin: PrecisionPlugin | None) -> None:
        self._precision_plugin = plugin

    @property
    def checkpoint_io(self) -> CheckpointIO:
        if self._checkpoint_io is None:
            from newcore.plugins.io.torch_plugin import TorchCheckpointIO

            self._checkpoint_io = TorchCheckpointIO()
        return self._checkpoint_io

    @checkpoint_io.setter
    def checkpoint_io(self, io: CheckpointIO | None) -> None:
        self._checkpoint_io = io

    @property
    def launcher(self) -> Launcher | None:
        """The launcher that starts this strategy's processes; ``None`` runs in the current process."""
        return self._launcher

    def _configure_launcher(self) -> None:
        """Create :attr:`launcher` once accelerator, devices and cluster environment are known."""

    # -- what the strategy says about itself ----------------------------------------------------

    @property
    def name(self) -> str:
        """The name to show users: the registry key it was built from, else the class name."""
        return self.registered_name or type(self).__name__

    @property
    def _flag(self) -> str:
        """How the user chose this strategy, for messages: ``strategy='dp'`` or ``strategy=DataParallelStrategy()``."""
        if self.registered_name:
            return f"strategy={self.registered_name!r}"
        return f"strategy={type(self).__name__}()"

    def _require_package(self, package: str, install: str, hint: str = "") -> None:
        """Raise :class:`MissingBackendError` unless the optional ``package`` is installed.

        Asks the probe instead of importing, so that the check is cheap and tests can fake it.
        """
        if current_probe().has_package(package):
            return
        error = MissingBackendError(self._flag, package=package, install=install)
        if hint:
            error.args = (f"{error} {hint}",)
        raise error

    @property
    def root_device(self) -> torch.device:
        """The device this process trains on."""
        raise NotImplementedError

    @property
    def global_rank(self) -> int:
        return 0

    @property
    def local_rank(self) -> int:
        return 0

    @property
    def node_rank(self) -> int:
        return 0

    @property
    def world_size(self) -> int:
        return 1

    @property
    def is_global_zero(self) -> bool:
        return self.global_rank == 0

    @classmethod
    def default_precision_plugin(cls, precision: str, device_type: str) -> PrecisionPlugin | None:
        """A strategy-specific precision plugin for ``precision`` on ``device_type``, or ``None``.

        DeepSpeed, sharded and fully sharded strategies bring their own; others use the generic table.
        """
        return None

    def check_setup(self) -> None:
        """Raise ``MisconfigurationException`` if what the connector attached cannot work with this strategy.

        Called once the accelerator, precision plugin, devices and cluster environment are attached.
        """

    def teardown(self) -> None:
        """Release what the strategy created; device-level cleanup is delegated to the accelerator."""
        self.precision_plugin.teardown()
        if self._accelerator is not None:
            self._accelerator.teardown()
        self.checkpoint_io.teardown()

    @classmethod
    def register_strategies(cls, registry: Registry[Strategy]) -> None:
        """Register this class's names (and their preset arguments) in ``registry``."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"
