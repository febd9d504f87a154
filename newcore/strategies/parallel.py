"""Strategies that train on several devices or processes."""

from __future__ import annotations

import atexit
import gc
import sys
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import torch
import torch.distributed as dist
from torch.nn import Module

from newcore.collective_faults import naming_missing_ranks
from newcore.collectives import ReduceOp, check_reduce_op
from newcore.exceptions import MisconfigurationException
from newcore.strategies.strategy import Strategy

if TYPE_CHECKING:
    from newcore.accelerators.accelerator import Accelerator
    from newcore.plugins.environments.cluster_environment import ClusterEnvironment
    from newcore.plugins.io.checkpoint_plugin import CheckpointIO
    from newcore.plugins.layer_sync import LayerSync
    from newcore.plugins.precision.precision_plugin import PrecisionPlugin


class ParallelStrategy(Strategy):
    """Base of strategies that span several devices: they own the device list and the cluster environment."""

    is_distributed = True

    def __init__(
        self,
        accelerator: Accelerator | None = None,
        parallel_devices: list[torch.device] | None = None,
        cluster_environment: ClusterEnvironment | None = None,
        checkpoint_io: CheckpointIO | None = None,
        precision_plugin: PrecisionPlugin | None = None,
    ) -> None:
        super().__init__(accelerator=accelerator, checkpoint_io=checkpoint_io, precision_plugin=precision_plugin)
        self.parallel_devices = parallel_devices
        self.cluster_environment = cluster_environment
        self.num_nodes = 1
        self.layer_sync: LayerSync | None = None
        self._global_rank = 0
        self._local_rank = 0
        self._node_rank = 0
        self._world_size = 1
        self._owns_process_group = False

    @property
    def num_processes(self) -> int:
        return len(self.parallel_devices) if self.parallel_devices is not None else 0

    @property
    def root_device(self) -> torch.device:
        if not self.parallel_devices:
            raise RuntimeError(f"{type(self).__name__} has no devices yet; the connector attaches them.")
        return self.parallel_devices[self.local_rank % len(self.parallel_devices)]

    def set_world_ranks(self) -> None:
        """Compute ranks from the node layout, then let the cluster environment have the last word.

        Schedulers (SLURM, torchelastic, ...) ignore the computed values and report their own; the
        default environment records them, so processes started by our launchers agree with it.
        """
        env = self.cluster_environment
        if env is not None and env.creates_processes_externally:
            self._local_rank = env.local_rank()
        self._node_rank = env.node_rank() if env is not None else 0
        self._world_size = self.num_nodes * self.num_processes
        self._global_rank = self._node_rank * self.num_processes + self._local_rank
        if env is not None:
            env.set_global_rank(self._global_rank)
            env.set_world_size(self._world_size)
            self._global_rank, self._world_size = env.global_rank(), env.world_size()

    def _worker_setup(self, local_rank: int) -> None:
        """Called by a launcher in each process it starts, before :meth:`setup_environment`."""
        self._local_rank = local_rank
        self.set_world_ranks()

    @property
    def global_rank(self) -> int:
        return self._global_rank

    @property
    def local_rank(self) -> int:
        return self._local_rank

    @property
    def node_rank(self) -> int:
        return self._node_rank

    @property
    def world_size(self) -> int:
        return self._world_size

    def _wrap_module(self, module: Module) -> Module:
        return self.layer_sync.apply(module) if self.layer_sync is not None else module

    def _restore_module(self, module: Module) -> Module:
        module = self.unwrap_module(module)
        return self.layer_sync.revert(module) if self.layer_sync is not None else module

    # -- torch.distributed: the process group and its collectives --------------------------------

    def _init_process_group(self, backend: str, timeout: timedelta) -> None:
        """Join the job's process group (rendezvous at the cluster environment's address), once per process.

        A group that already exists (the user's own) is reused and left alive at teardown.
        """
        self.set_world_ranks()
        if dist.is_initialized():
            self._owns_process_group = False
            return
        env = self.cluster_environment
        if env is None:
            raise MisconfigurationException(f"`{self._flag}` needs a cluster environment to find its peers.")
        if self.global_rank == 0 and self.world_size > 1:
            # One line while the group forms: a job that hangs here says what it is waiting for.
            print(
                f"newcore: waiting for {self.world_size} processes at {env.main_address}:{env.main_port}",
                file=sys.stderr,
                flush=True,
            )
        dist.init_process_group(
            backend,
            init_method=f"tcp://{env.main_address}:{env.main_port}",
            rank=self.global_rank,
            world_size=self.world_size,
            timeout=timeout,
        )
        self._owns_process_group = True
        # A script that ends without teardown (Fabric's style allows it) would leave the group to the interpreter's
        # shutdown, where destroying Gloo's threads can abort the process (SIGABRT, "terminate called without an
        # active exception"): free it first. A no-op after teardown.
        atexit.register(_destroy_at_exit)

    def _teardown_distributed(self) -> None:
        if self.cluster_environment is not None:
            self.cluster_environment.teardown()
        if self._owns_process_group and dist.is_initialized():
            # Objects in reference cycles (wrappers, sharded optimizers) may still hold the group;
            # freeing them after it is destroyed aborts the process.
            gc.collect()
            dist.destroy_process_group()
        self._owns_process_group = False

    @staticmethod
    def _distributed() -> bool:
        return dist.is_available() and dist.is_initialized()

    def backward(self, tensor: torch.Tensor, module: Module | None = None, *args: Any, **kwargs: Any) -> None:
        # DDP reduces gradients inside backward: a hung or lost peer fails here.
        with naming_missing_ranks(self, "backward", any_error=False):
            super().backward(tensor, module, *args, **kwargs)

    def barrier(self, name: str | None = None) -> None:
        if self._distributed():
            with naming_missing_ranks(self, "barrier" if name is None else f"barrier({name!r})"):
                dist.barrier()

    def broadcast(self, obj: Any, src: int = 0) -> Any:
        if not self._distributed():
            return obj
        box = [obj]
        with naming_missing_ranks(self, "broadcast"):
            dist.broadcast_object_list(box, src=src, device=self._collective_device())
        return box[0]

    def all_gather(self, tensor: torch.Tensor, group: Any | None = None, sync_grads: bool = False) -> torch.Tensor:
        if not self._distributed():
            return tensor.unsqueeze(0)
        tensor = tensor.contiguous()
        if sync_grads:
            from torch.distributed.nn.functional import all_gather as differentiable_all_gather

            with naming_missing_ranks(self, "all_gather"):
                gathered = differentiable_all_gather(tensor, group=group or dist.group.WORLD)  # type: ignore[no-untyped-call]
            return torch.stack(gathered)
        parts = [torch.empty_like(tensor) for _ in range(dist.get_world_size(group))]
        with naming_missing_ranks(self, "all_gather"):
            dist.all_gather(parts, tensor, group=group)
        return torch.stack(parts)

    def all_reduce(self, tensor: torch.Tensor, op: ReduceOp = "sum", group: Any | None = None) -> torch.Tensor:
        name = check_reduce_op(op, self.reduce_ops, self._flag)
        result = tensor.clone()
        if self._distributed():
            # The mean is a sum divided here: Gloo has no AVG.
            with naming_missing_ranks(self, "all_reduce"):
                dist.all_reduce(
                    result, op=getattr(dist.ReduceOp, "SUM" if name == "mean" else name.upper()), group=group
                )
        if name == "mean":
            result = result / (dist.get_world_size(group) if self._distributed() else 1)
        return result

    def reduce_boolean_decision(self, decision: bool, all: bool = True) -> bool:
        votes = self.all_reduce(torch.tensor(int(decision), device=self._collective_device()))
        return bool(votes.item() == self.world_size) if all else bool(votes.item() > 0)

    def _collective_device(self) -> torch.device:
        """Where tensors for collectives live: the root device (NCCL needs it on the GPU)."""
        return self.root_device

    @property
    def distributed_sampler_kwargs(self) -> dict[str, int] | None:
        return {"num_replicas": self.world_size, "rank": self.global_rank}

    def __repr__(self) -> str:
        return f"{type(self).__name__}(parallel_devices={self.parallel_devices}, num_nodes={self.num_nodes})"


def _destroy_at_exit() -> None:
    if dist.is_available() and dist.is_initialized():
        gc.collect()
        dist.destroy_process_group()
