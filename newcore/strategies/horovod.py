"""Horovod: ring all-reduce data parallel, with processes started by ``horovodrun``/``mpirun``."""

from __future__ import annotations

import os
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any, ClassVar

import torch
from torch.nn import Module
from torch.optim import Optimizer

from newcore.collectives import ReduceOp, check_reduce_op, no_group
from newcore.exceptions import MisconfigurationException, MissingBackendError
from newcore.registry import Registry
from newcore.strategies.parallel import ParallelStrategy
from newcore.strategies.strategy import Strategy

if TYPE_CHECKING:
    from newcore.accelerators.accelerator import Accelerator
    from newcore.plugins.environments.cluster_environment import ClusterEnvironment
    from newcore.plugins.io.checkpoint_plugin import CheckpointIO
    from newcore.plugins.precision.precision_plugin import PrecisionPlugin

_INSTALL = "pip install 'lightning-migrate[horovod]'"
_BUILD_HINT = "If building the wheel fails, tools/install-horovod.sh builds Horovod with PyTorch support."

#: Where each launcher announces ranks, (global rank, world size, local rank, node rank): horovodrun
#: with Gloo exports HOROVOD_*, mpirun exports Open MPI's. Read before ``hvd.init()`` only.
_RANK_VARIABLES = (
    ("HOROVOD_RANK", "HOROVOD_SIZE", "HOROVOD_LOCAL_RANK", "HOROVOD_CROSS_RANK"),
    ("OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_NODE_RANK"),
)


def _horovod(what: str) -> Any:
    """``horovod.torch``, imported on first use: registering or building the strategy never needs it."""
    try:
        import horovod.torch as hvd
    except ImportError:
        error = MissingBackendError(what, package="horovod", install=_INSTALL)
        error.args = (f"{error} {_BUILD_HINT}",)
        raise error from None
    return hvd


class HorovodStrategy(ParallelStrategy):
    """Data parallel through Horovod's all-reduce; horovodrun starts one process per device.

    There is no launcher: by the time this strategy runs, Horovod's own launcher has started every
    rank, so ranks and world size come from Horovod and each process trains on one device (on CUDA,
    ``cuda:<hvd.local_rank()>``). As in Lightning 1.6, optimizers are wrapped in
    ``hvd.DistributedOptimizer``, their learning rates are multiplied by the world size (the
    effective batch grows with it), and parameters and optimizer state start from rank 0's.
    """

    default_devices: ClassVar[int | str] = 1
    reduce_ops: ClassVar[tuple[ReduceOp, ...]] = ("sum", "mean")

    def __init__(
        self,
        accelerator: Accelerator | None = None,
        parallel_devices: list[torch.device] | None = None,
        cluster_environment: ClusterEnvironment | None = None,
        checkpoint_io: CheckpointIO | None = None,
        precision_plugin: PrecisionPlugin | None = None,
    ) -> None:
        super().__init__(
            accelerator=accelerator,
            parallel_devices=parallel_devices,
            cluster_environment=cluster_environment,
            checkpoint_io=checkpoint_io,
            precision_plugin=precision_plugin,
        )
        self._initialized = False
        #: Holds each wrapped optimizer's ``skip_synchronize()`` until teardown (see :meth:`backward`).
        self._exit_stack: ExitStack | None = None

    # -- ranks and devices ----------------------------------------------------------------------

    @property
    def root_device(self) -> torch.device:
        if not self.parallel_devices:
            raise RuntimeError(f"{type(self).__name__} has no devices yet; the connector attaches them.")
        device = self.parallel_devices[0]
        # Every process sees all of the node's GPUs; Horovod gives each local rank its own.
        return torch.device("cuda", self.local_rank) if device.type == "cuda" else device

    def set_world_ranks(self) -> None:
        """Ranks as Horovod numbered the processes; before ``hvd.init()``, from the launcher's variables."""
        if self._initialized:
            hvd = _horovod(self._flag)
            self._global_rank, self._world_size = hvd.rank(), hvd.size()
            self._local_rank, self._node_rank = hvd.local_rank(), hvd.cross_rank()
            return
        for rank, size, local, node in _RANK_VARIABLES:
            if rank in os.environ:
                self._global_rank, self._world_size = int(os.environ[rank]), int(os.environ.get(size, "1"))
                self._local_rank, self._node_rank = int(os.environ.get(local, "0")), int(os.environ.get(node, "0"))
                return
        self._global_rank, self._world_size, self._local_rank, self._node_rank = 0, 1, 0, 0

    def check_setup(self) -> None:
        super().check_setup()
        devices = len(self.parallel_devices or ())
        given = [f"num_nodes={self.num_nodes}"] if self.num_nodes > 1 else []
        given += [f"{devices} devices per node (`devices`/`gpus`)"] if devices > 1 else []
        if given:
            raise MisconfigurationException(
                f"Horovod does not support setting num_nodes / devices explicitly, but `{self._flag}` got"
                f" {' and '.join(given)}. Horovod starts one process per device: use horovodrun / mpirun to"
                " configure the number of processes (e.g. `horovodrun -np 4 -H host1:2,host2:2 python train.py`)"
                " and leave `num_nodes` and `devices` unset."
            )
        self._require_package("horovod", _INSTALL, hint=_BUILD_HINT)

    # -- runtime --------------------------------------------------------------------------------

    def setup_environment(self) -> None:
        hvd = _horovod(self._flag)
        hvd.init()
        self._initialized = True
        self.set_world_ranks()
        super().setup_environment()

    def setup_optimizer(self, optimizer: Optimizer) -> Optimizer:
        """Scale the learning rate, wrap for all-reduce, and start from rank 0's parameters and state."""
        hvd = _horovod(self._flag)
        if _is_horovod_optimizer(optimizer):
            return super().setup_optimizer(optimizer)
        for group in optimizer.param_groups:
            group["lr"] *= self.world_size
        distributed = hvd.DistributedOptimizer(optimizer, named_parameters=self._named_parameters(optimizer))
        # Horovod builds a new optimizer over copies of the param groups and with empty state: carry
        # over any state the user's optimizer has (e.g. restored from a checkpoint) before broadcasting.
        if optimizer.state:
            distributed.load_state_dict(optimizer.state_dict())
        for module in self._modules:
            hvd.broadcast_parameters(self.unwrap_module(module).state_dict(), root_rank=0)
        hvd.broadcast_optimizer_state(distributed, root_rank=0)
        if self._exit_stack is None:
            self._exit_stack = ExitStack()
        # We synchronize right after backward (so a precision plugin can unscale before the step);
        # without this, `step()` would wait for the same all-reduce a second time.
        self._exit_stack.enter_context(distributed.skip_synchronize())
        return super().setup_optimizer(_HorovodOptimizer.wrap(distributed))

    def _named_parameters(self, optimizer: Optimizer) -> list[tuple[str, torch.nn.Parameter]]:
        """Names for the optimizer's parameters, which Horovod uses to match all-reduces across ranks.

        Parameters of modules already set up carry their module names (prefixed by the module's
        position once there are several, since two modules may both have a ``weight``); any other
        gets a positional name, the same on every rank since every rank builds the same optimizer.
        """
        modules = [self.unwrap_module(m) for m in self._modules]
        known = {
            id(p): f"module{i}.{name}" if len(modules) > 1 else name
            for i, module in enumerate(modules)
            for name, p in module.named_parameters()
        }
        return [
            (known.get(id(p), f"param_group{g}.{i}"), p)
            for g, group in enumerate(optimizer.param_groups)
            for i, p in enumerate(group["params"])
        ]

    def backward(self, tensor: torch.Tensor, module: Module | None = None, *args: Any, **kwargs: Any) -> None:
        super().backward(tensor, module, *args, **kwargs)
        for optimizer in self._optimizers:
            if isinstance(optimizer, _HorovodOptimizer):
                optimizer.synchronize()

    # -- collectives ----------------------------------------------------------------------------

    def join(self) -> None:
        """Wait until every rank gets here (Horovod's ``join``, which also lets ranks with fewer batches finish)."""
        if not self._initialized:
            return
        hvd = _horovod(self._flag)
        device = self.root_device
        if device.type == "cuda":
            hvd.join(device.index)
        else:
            hvd.join()

    def barrier(self, name: str | None = None) -> None:
        self.join()

    def broadcast(self, obj: Any, src: int = 0) -> Any:
        if not self._initialized:
            return obj
        return _horovod(self._flag).broadcast_object(obj, root_rank=src)

    def all_gather(self, tensor: torch.Tensor, group: Any | None = None, sync_grads: bool = False) -> torch.Tensor:
        # hvd.allgather is differentiable, so sync_grads holds either way.
        no_group(group, self._flag)
        if not self._initialized:
            return tensor.unsqueeze(0)
        # hvd.allgather concatenates along dim 0; a new leading dim gives the contract's (world_size, ...) stack.
        gathered: torch.Tensor = _horovod(self._flag).allgather(tensor.unsqueeze(0))
        return gathered

    def all_reduce(self, tensor: torch.Tensor, op: ReduceOp = "sum", group: Any | None = None) -> torch.Tensor:
        name = check_reduce_op(op, self.reduce_ops, self._flag)
        no_group(group, self._flag)
        if not self._initialized:
            return tensor.clone()
        hvd = _horovod(self._flag)
        reduced: torch.Tensor = hvd.allreduce(tensor, op=hvd.Sum if name == "sum" else hvd.Average)
        return reduced

    # -- teardown -------------------------------------------------------------------------------

    def teardown(self) -> None:
        if not self._torn_down:
            if self._exit_stack is not None:
                self._exit_stack.close()
                self._exit_stack = None
            # No rank returns to the user while another is still training (and still all-reducing).
            self.join()
        super().teardown()

    @classmethod
    def register_strategies(cls, registry: Registry[Strategy]) -> None:
        registry.register_table(cls, {"horovod": {}})


def _is_horovod_optimizer(optimizer: Optimizer) -> bool:
    # hvd.DistributedOptimizer builds a class on the fly; its module is horovod's, never torch's.
    return isinstance(optimizer, _HorovodOptimizer) or type(optimizer).__module__.startswith("horovod.")


class _HorovodOptimizer:
    """``hvd.DistributedOptimizer`` in a form that survives being subclassed.

    Horovod's methods call ``super(self.__class__, self)``, which recurses forever once anything
    subclasses the instance's class (the Runner's optimizer wrapper does, to keep ``isinstance``
    working). This view shares Horovod's ``__dict__`` (state, param groups) and sends the methods
    Horovod overrides to Horovod's own instance, whose class is never subclassed.
    """

    horovod: ClassVar[Any]

    @classmethod
    def wrap(cls, distributed: Any) -> Optimizer:
        user_class = type(distributed).__mro__[1]  # Horovod's class derives from the user's directly
        kind = type(user_class.__name__, (cls, user_class), {"horovod": distributed})
        view: Optimizer = object.__new__(kind)
        view.__dict__ = distributed.__dict__
        return view

    def step(self, closure: Any = None) -> Any:
        return self.horovod.step(closure)

    def zero_grad(self, set_to_none: bool = True) -> None:
        # Horovod's zero_grad (which refuses while all-reduces are in flight) takes no arguments and
        # keeps torch's default, set_to_none=True.
        self.horovod.zero_grad()

    def synchronize(self) -> None:
        """Wait for the gradients' all-reduce (Horovod starts it per parameter during backward)."""
        self.horovod.synchronize()

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        self.horovod.load_state_dict(state_dict)
