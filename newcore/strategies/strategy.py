"""The strategy: how a model is placed, wrapped and kept in sync across devices and processes."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import torch
from torch.nn import Module
from torch.optim import Optimizer

from newcore.collectives import REDUCE_OPS, ReduceOp, check_reduce_op
from newcore.exceptions import MissingBackendError
from newcore.probe import current_probe
from newcore.registry import Registry, register_own

if TYPE_CHECKING:
    from newcore.accelerators.accelerator import Accelerator
    from newcore.launchers.launcher import Launcher
    from newcore.plugins.io.checkpoint_plugin import CheckpointIO
    from newcore.plugins.precision.precision_plugin import PrecisionPlugin


class _StrategyRegistry(Registry["Strategy"]):
    """A registry whose instances remember the name they were built from.

    Messages then quote the user's own flag (``strategy='fsdp'``), even for an alias of a class
    that has several names.
    """

    def get(self, name: str, **overrides: Any) -> Strategy:
        """Build the strategy registered under ``name`` and set its ``registered_name`` to that key."""
        entry = self.entry(name)
        strategy = entry.build(**overrides)
        strategy.registered_name = entry.name
        return strategy


#: Every strategy name the connector accepts, filled by the strategy classes themselves. It lives with the class its
#: entries subclass, which fills it; ``newcore.strategies.strategy_registry`` is where users import it from.
StrategyRegistry: Registry[Strategy] = _StrategyRegistry("strategy", "strategy")


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
    #: The devices this strategy takes when ``devices=`` is not given: every device of the accelerator,
    #: or one (single-device strategies; Horovod, whose launcher gives each process one device).
    default_devices: ClassVar[int | str] = "auto"
    #: Whether the strategy spans several processes or devices.
    is_distributed: ClassVar[bool] = False
    #: Whether teardown moves modules (and optimizer state) that live on an accelerator back to the host.
    #: Sharding strategies say no: gathering a model that only fits sharded can run the host out of
    #: memory (Lightning #10415), so they leave it where it is.
    move_to_host_on_teardown: ClassVar[bool] = True
    #: The ``op``\s :meth:`all_reduce` can do (on one process, all of them: each is the identity).
    reduce_ops: ClassVar[tuple[ReduceOp, ...]] = REDUCE_OPS

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
        self._modules: list[Module] = []
        self._optimizers: list[Optimizer] = []
        self._torn_down = False

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

    # -- runtime: what a training process calls, in order ----------------------------------------

    def setup_environment(self) -> None:
        """Prepare this process: the accelerator sets up :attr:`root_device`.

        Distributed strategies also join (or create) their process group here. Calling it again after
        :meth:`teardown` starts a new session.
        """
        self._torn_down = False
        if self._accelerator is not None:
            self._accelerator.setup_device(self.root_device)

    def setup_module(self, module: Module) -> Module:
        """Convert ``module`` for the precision, move it to the device and wrap it; return what to train."""
        module = self._wrap_module(self.module_to_device(self.precision_plugin.convert_module(module)))
        self._modules.append(module)
        return module

    def _wrap_module(self, module: Module) -> Module:
        """Wrap the module, already on its device, for this strategy (e.g. in ``DistributedDataParallel``)."""
        return module

    def setup_module_and_optimizers(
        self, module: Module, optimizers: list[Optimizer]
    ) -> tuple[Module, list[Optimizer]]:
        """Set up a module together with its optimizers (DeepSpeed needs both at once)."""
        return self.setup_module(module), [self.setup_optimizer(optimizer) for optimizer in optimizers]

    def setup_optimizer(self, optimizer: Optimizer) -> Optimizer:
        """Return the optimizer to step (sharding strategies replace it with a sharded one)."""
        self._optimizers.append(optimizer)
        return optimizer

    def module_to_device(self, module: Module) -> Module:
        """Move ``module`` to :attr:`root_device`."""
        return module.to(self.root_device)

    def unwrap_module(self, module: Module) -> Module:
        """The user's module inside what :meth:`setup_module` returned."""
        return module

    def _restore_module(self, module: Module) -> Module:
        """Undo :meth:`_wrap_module` for good, at teardown (unwrap, revert layer synchronisation)."""
        return self.unwrap_module(module)

    def backward(self, tensor: torch.Tensor, module: Module | None = None, *args: Any, **kwargs: Any) -> None:
        """Run the backward pass through the precision plugin; ``args``/``kwargs`` go to ``tensor.backward``."""
        self.precision_plugin.backward(tensor, *args, **kwargs)

    def optimizer_step(self, optimizer: Optimizer, **kwargs: Any) -> Any:
        """Step ``optimizer`` through the precision plugin (which may skip a step with inf gradients)."""
        return self.precision_plugin.optimizer_step(optimizer, **kwargs)

    # -- collectives: single-process defaults, overridden by distributed strategies --------------

    def barrier(self, name: str | None = None) -> None:
        """Wait until every process reaches this point."""

    def broadcast(self, obj: Any, src: int = 0) -> Any:
        """``obj`` as process ``src`` has it (any picklable object)."""
        return obj

    def all_gather(self, tensor: torch.Tensor, group: Any | None = None, sync_grads: bool = False) -> torch.Tensor:
        """Every process's ``tensor`` stacked on a new first dimension of size :attr:`world_size`.

        ``group``: a ``torch.distributed`` process group (default: all processes); ``sync_grads``: let
        gradients flow back through the gather. Strategies that cannot do either raise.
        """
        return tensor.unsqueeze(0)

    def all_reduce(self, tensor: torch.Tensor, op: ReduceOp = "sum", group: Any | None = None) -> torch.Tensor:
        """``tensor`` reduced by ``op`` (one of :attr:`reduce_ops`) over all processes, as a new tensor."""
        check_reduce_op(op, self.reduce_ops, self._flag)
        return tensor.clone()

    def reduce_boolean_decision(self, decision: bool, all: bool = True) -> bool:
        """Whether every process (``all=True``) or any process (``all=False``) decided ``True``."""
        return decision

    @property
    def distributed_sampler_kwargs(self) -> dict[str, int] | None:
        """``num_replicas``/``rank`` for a ``DistributedSampler``, or ``None`` when every process sees all data."""
        return None

    # -- checkpoints ----------------------------------------------------------------------------

    def module_state(self, module: Module) -> dict[str, Any]:
        """The full state dict of ``module`` (a collective for sharding strategies: call it on every rank)."""
        return self.unwrap_module(module).state_dict()

    def optimizer_state(self, optimizer: Optimizer) -> dict[str, Any]:
        """The full state dict of ``optimizer`` (a collective for sharding strategies: call it on every rank)."""
        return optimizer.state_dict()

    def load_module_state(self, module: Module, state: dict[str, Any], strict: bool = True) -> None:
        """Load a full state dict (as :meth:`module_state` returns it) into ``module``, set up or not."""
        self.unwrap_module(module).load_state_dict(state, strict=strict)

    def load_optimizer_state(self, optimizer: Optimizer, state: dict[str, Any]) -> None:
        """Load a full state dict (as :meth:`optimizer_state` returns it) into ``optimizer``."""
        optimizer.load_state_dict(state)

    def save_checkpoint(self, state: dict[str, Any], path: str | Path) -> None:
        """Global rank zero writes ``state`` through the CheckpointIO; the others wait until it is written."""
        if self.is_global_zero:
            self.checkpoint_io.save_checkpoint(state, path)
        self.barrier("save_checkpoint")

    def load_checkpoint(self, path: str | Path) -> dict[str, Any]:
        """Read the checkpoint at ``path`` (onto the CPU) through the CheckpointIO."""
        return self.checkpoint_io.load_checkpoint(path, map_location="cpu")

    # -- teardown -------------------------------------------------------------------------------

    def teardown(self) -> None:
        """Unwrap and place the modules, then tear down precision plugin, accelerator and CheckpointIO.

        Idempotent: a second call does nothing until :meth:`setup_environment` runs again. Device-level
        cleanup (CUDA cache, XLA variables) belongs to the accelerator; strategies never branch on the
        device type here.
        """
        if self._torn_down:
            return
        self._torn_down = True
        self._teardown_modules()
        self.precision_plugin.teardown()
        if self._accelerator is not None:
            self._accelerator.teardown()
        self.checkpoint_io.teardown()
        self._teardown_distributed()

    def _teardown_modules(self) -> None:
        """Unwrap every module set up, and move it (and its optimizer state) to the host if the strategy says so."""
        modules = [self._restore_module(module) for module in self._modules]
        self._modules.clear()
        if self.move_to_host_on_teardown:
            cpu = torch.device("cpu")
            for module in modules:
                if any(t.device != cpu for t in (*module.parameters(), *module.buffers())):
                    module.to(cpu)
            for optimizer in self._optimizers:
                _optimizer_to(optimizer, cpu)
        self._optimizers.clear()

    def _teardown_distributed(self) -> None:
        """Release the cluster environment and the process group (distributed strategies only)."""

    @classmethod
    def register_strategies(cls, registry: Registry[Strategy]) -> None:
        """Register this class's names (and their preset arguments) in ``registry``."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def _optimizer_to(optimizer: Optimizer, device: torch.device) -> None:
    """Move the tensors of ``optimizer``'s state to ``device`` in place."""
    for state in optimizer.state.values():
        for key, value in state.items():
            if isinstance(value, torch.Tensor) and value.device != device:
                state[key] = value.to(device)
