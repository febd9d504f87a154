"""TPU training with one process per TPU core (or chip), started through ``torch_xla``."""

from __future__ import annotations

import pickle
from typing import TYPE_CHECKING, Any, ClassVar

import torch
from torch.nn import Module
from torch.optim import Optimizer

from newcore.collectives import ReduceOp, check_reduce_op, no_group
from newcore.exceptions import MisconfigurationException
from newcore.launchers.xla_spawn import _XLASpawnLauncher
from newcore.plugins.io.xla_plugin import XLACheckpointIO
from newcore.registry import Registry
from newcore.strategies import _xla
from newcore.strategies.ddp import _DDPBase
from newcore.strategies.ddp_spawn import DDPSpawnStrategy
from newcore.strategies.strategy import Strategy

if TYPE_CHECKING:
    from newcore.accelerators.accelerator import Accelerator
    from newcore.plugins.io.checkpoint_plugin import CheckpointIO
    from newcore.plugins.precision.precision_plugin import PrecisionPlugin


class TPUSpawnStrategy(DDPSpawnStrategy):
    """Data parallel over TPU cores: torch_xla starts one process per core and syncs them over XLA.

    Nothing here goes through ``torch.distributed``: gradients are all-reduced by ``xm.optimizer_step``
    (the TPU precision plugin), the module is not wrapped in ``DistributedDataParallel``, and the
    collectives are XLA's. Ranks and the device come from ``torch_xla`` inside each process, since XLA
    (PJRT) decides how many processes a host runs and which device each one addresses.

    ``debug=True`` (``tpu_spawn_debug``) exports ``PT_XLA_DEBUG=1`` in :meth:`setup_environment`,
    never at construction; the TPU accelerator's teardown removes it.
    """

    supports_xla: ClassVar[bool] = True
    default_accelerator: ClassVar[str | None] = "tpu"
    # XLA reduces by sum; the mean divides after it, and no MAX/MIN path has been tried on a TPU.
    reduce_ops: ClassVar[tuple[ReduceOp, ...]] = ("sum", "mean")

    def __init__(
        self,
        accelerator: Accelerator | None = None,
        parallel_devices: list[torch.device] | None = None,
        checkpoint_io: CheckpointIO | None = None,
        precision_plugin: PrecisionPlugin | None = None,
        debug: bool = False,
    ) -> None:
        # XLA always forks its workers (see _XLASpawnLauncher) and brings its own rendezvous.
        super().__init__(
            accelerator=accelerator,
            parallel_devices=parallel_devices,
            checkpoint_io=checkpoint_io,
            precision_plugin=precision_plugin,
            start_method="fork",
        )
        self.debug = debug
        #: Inside a process the launcher started: ranks, device and collectives come from torch_xla.
        self._launched = False

    @property
    def checkpoint_io(self) -> CheckpointIO:
        if self._checkpoint_io is None:
            self._checkpoint_io = XLACheckpointIO()
        return self._checkpoint_io

    @checkpoint_io.setter
    def checkpoint_io(self, io: CheckpointIO | None) -> None:
        self._checkpoint_io = io

    def _configure_launcher(self) -> None:
        self._launcher = _XLASpawnLauncher(self)

    def check_setup(self) -> None:
        # torch_xla first: without it, nothing else about this strategy matters.
        self._require_package("torch_xla", "pip install 'lightning-migrate[xla]'")
        super().check_setup()

    # -- ranks and device -----------------------------------------------------------------------

    @property
    def root_device(self) -> torch.device:
        if self._launched:
            # Under PJRT each process addresses its own device(s); the index is not the local rank.
            return _xla.xla_device(self._flag)
        return super().root_device

    def _worker_setup(self, local_rank: int) -> None:
        """Called by the launcher in each process: take ranks from torch_xla, which numbered the processes."""
        _xla.import_torch_xla(self._flag)
        import torch_xla.runtime as xr

        self._launched = True
        self._global_rank = xr.global_ordinal()
        self._local_rank = xr.local_ordinal()
        self._world_size = xr.world_size()
        self._node_rank = xr.host_index() if hasattr(xr, "host_index") else 0

    # -- runtime --------------------------------------------------------------------------------

    def setup_environment(self) -> None:
        if self.debug:
            _xla.export_debug()
        # Skip _DDPBase's torch.distributed process group: XLA replicas talk through XLA collectives.
        super(_DDPBase, self).setup_environment()

    def _wrap_module(self, module: Module) -> Module:
        # No DistributedDataParallel: xm.optimizer_step all-reduces the gradients.
        return module

    def optimizer_step(self, optimizer: Optimizer, **kwargs: Any) -> Any:
        result = super().optimizer_step(optimizer, **kwargs)
        # One compiled graph per step, as XLA's own data loader would cut it.
        _xla.step_boundary(self._flag)
        return result

    # -- collectives ----------------------------------------------------------------------------

    def barrier(self, name: str | None = None) -> None:
        if self._launched:
            _xla.xla_model(self._flag).rendezvous(name or "barrier")

    def broadcast(self, obj: Any, src: int = 0) -> Any:
        if not self._launched:
            return obj
        # rendezvous exchanges byte payloads of any length (it pads them); only `src` sends one.
        payload = pickle.dumps(obj) if self.global_rank == src else b""
        payloads = _xla.xla_model(self._flag).rendezvous("broadcast", payload)
        return pickle.loads(payloads[src])

    def all_gather(self, tensor: torch.Tensor, group: Any | None = None, sync_grads: bool = False) -> torch.Tensor:
        no_group(group, self._flag)
        if sync_grads:
            raise MisconfigurationException(
                f"`all_gather(sync_grads=True)` is not supported by `{self._flag}`: XLA's all_gather does not carry"
                " gradients back. Gather without `sync_grads`, or reduce the loss instead."
            )
        if not self._launched:
            return tensor.unsqueeze(0)
        device = tensor.device
        gathered: torch.Tensor = _xla.xla_model(self._flag).all_gather(tensor.unsqueeze(0).to(self.root_device), dim=0)
        return gathered.to(device)

    def all_reduce(self, tensor: torch.Tensor, op: ReduceOp = "sum", group: Any | None = None) -> torch.Tensor:
        name = check_reduce_op(op, self.reduce_ops, self._flag)
        no_group(group, self._flag)
        if not self._launched:
            return tensor.clone()
        xm = _xla.xla_model(self._flag)
        device = tensor.device
        # Out of place (the input keeps its value); the mean divides after the sum, as the base strategy does.
        reduced: torch.Tensor = xm.all_reduce(xm.REDUCE_SUM, tensor.to(self.root_device).clone())
        if name == "mean":
            reduced = reduced / self.world_size
        return reduced.to(device)

    def _collective_device(self) -> torch.device:
        # Outside the workers there is no XLA runtime to put a tensor on (and no peers to reach).
        return self.root_device if self._launched else torch.device("cpu")

    # -- teardown -------------------------------------------------------------------------------

    def teardown(self) -> None:
        # Every process tears down together, so none leaves while another still runs a collective.
        if not self._torn_down:
            self.barrier("teardown")
        super().teardown()
        self._launched = False

    @classmethod
    def register_strategies(cls, registry: Registry[Strategy]) -> None:
        registry.register_table(cls, {"tpu_spawn": {}, "tpu_spawn_debug": {"debug": True}})

    def __repr__(self) -> str:
        return f"{type(self).__name__}(parallel_devices={self.parallel_devices}, debug={self.debug})"
