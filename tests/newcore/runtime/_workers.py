"""Functions the runtime tests run in real worker processes (module level, so that spawn can pickle them)."""

from __future__ import annotations

import gc
import os
import threading
import time
import weakref
from pathlib import Path
from typing import Any

import torch
import torch.distributed as dist
from torch.utils.data import DataLoader, TensorDataset

from newcore import Runner
from newcore.accelerators.cpu import CPUAccelerator
from newcore.plugins.io import TorchCheckpointIO
from newcore.strategies import DDPFullyShardedStrategy

STEPS = 3


def batch() -> tuple[torch.Tensor, torch.Tensor]:
    generator = torch.Generator().manual_seed(1)
    return torch.randn(8, 4, generator=generator), torch.randn(8, 2, generator=generator)


def model() -> torch.nn.Module:
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 2))


def train(runner: Runner, steps: int = STEPS) -> dict[str, Any]:
    """Each rank trains on its slice of the same global batch; returns the weights and what the process saw."""
    net = model()
    if isinstance(runner.strategy, DDPFullyShardedStrategy):  # optimizers come after wrapping
        net = runner.setup(net)
        optimizer = runner.setup_optimizers(torch.optim.SGD(net.parameters(), lr=0.1))
    else:
        net, optimizer = runner.setup(net, torch.optim.SGD(net.parameters(), lr=0.1))
    x, y = batch()
    x, y = x[runner.global_rank :: runner.world_size], y[runner.global_rank :: runner.world_size]
    for _ in range(steps):
        loss = torch.nn.functional.mse_loss(net(x), y)
        runner.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
    state = runner.strategy.module_state(net)
    return {
        "state": {k: v.detach().clone() for k, v in state.items()},
        "deterministic": torch.are_deterministic_algorithms_enabled(),
        "ranks": runner.all_gather(torch.tensor([runner.global_rank])).flatten().tolist(),
    }


def reference(steps: int = STEPS) -> dict[str, torch.Tensor]:
    """The same training on the whole batch in one process."""
    net = model()
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
    x, y = batch()
    for _ in range(steps):
        torch.nn.functional.mse_loss(net(x), y).backward()
        optimizer.step()
        optimizer.zero_grad()
    return net.state_dict()


def collectives(runner: Runner, checkpoint: str) -> dict[str, Any]:
    """Every collective in one launch (sharing its process group); asserts in the worker, returns rank 0's view."""
    rank, size = runner.global_rank, runner.world_size
    assert size == 2 and runner.local_rank == rank and runner.device == torch.device("cpu")
    runner.barrier("start")
    gathered = runner.all_gather(torch.tensor([rank, 10 * rank]))
    assert gathered.tolist() == [[0, 0], [1, 10]]
    assert runner.all_reduce(torch.tensor([rank + 1.0]), reduce_op="sum").item() == 3.0
    assert runner.all_reduce(torch.tensor([rank + 1.0])).item() == 1.5  # Fabric's default: the mean
    assert runner.broadcast({"from": rank}, src=1) == {"from": 1}
    assert runner.strategy.reduce_boolean_decision(rank == 0, all=False) is True
    assert runner.strategy.reduce_boolean_decision(rank == 0, all=True) is False
    loader = runner.setup_dataloaders(DataLoader(TensorDataset(torch.arange(8)), batch_size=2))
    seen = runner.all_gather(torch.cat([b[0] for b in loader])).flatten().sort().values.tolist()
    assert seen == list(range(8)), seen
    net, optimizer = runner.setup(model(), torch.optim.Adam(model().parameters()))
    runner.save(checkpoint, {"model": net, "optimizer": optimizer, "step": 7})
    restored = runner.load(checkpoint, {"model": net})
    assert restored["step"] == 7 and "optimizer" in restored
    return {"world_size": size, "is_global_zero": runner.is_global_zero, "gathered": gathered.tolist()}


class MarkerIO(TorchCheckpointIO):
    """A real CheckpointIO that leaves a file behind when torn down, so the parent sees which ranks tore down."""

    def __init__(self, directory: str) -> None:
        self.directory = directory

    def teardown(self) -> None:
        Path(self.directory, f"teardown-{os.getpid()}").touch()


def fail_on_rank_one(runner: Runner, pid_dir: str) -> None:
    """Rank 1 raises at once; rank 0 would sleep for a minute if nobody stopped it."""
    Path(pid_dir, f"worker-{os.getpid()}").touch()
    if runner.global_rank == 1:
        time.sleep(0.5)
        raise ValueError("rank 1 failed on purpose")
    time.sleep(60)


class CountingCPU(CPUAccelerator):
    """The CPU accelerator, counting its teardowns (it registers no name of its own)."""

    teardowns = 0

    def teardown(self) -> None:
        type(self).teardowns += 1
        super().teardown()


#: Set by torch itself, once per process, on its first lazy import of inductor (not ours to clean up).
TORCH_OWN_VARIABLES = {"TORCHINDUCTOR_CACHE_DIR"}


def teardown_state(runner: Runner) -> dict[str, Any]:
    """Set up a model with BatchNorm under DDP + SyncBatchNorm, tear down, and report what is left."""
    env_before = dict(os.environ)
    threads_before = {t.name for t in threading.enumerate()}
    net = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.BatchNorm1d(4))
    wrapped = runner.setup(net)
    wrapped_kinds = (type(wrapped).__name__, type(wrapped.module[1]).__name__)
    wrapped(torch.randn(4, 4)).sum().backward()
    runner.teardown()
    runner.teardown()  # idempotent
    accelerator = runner.strategy.accelerator
    return {
        "wrapped": wrapped_kinds,
        "after": type(net[1]).__name__,
        "device": str(next(net.parameters()).device),
        "process_group": dist.is_initialized(),
        "env_changed": sorted(
            k
            for k in env_before.keys() | os.environ.keys()
            if env_before.get(k) != os.environ.get(k) and k not in TORCH_OWN_VARIABLES
        ),
        "new_threads": sorted({t.name for t in threading.enumerate()} - threads_before),
        "accelerator_teardowns": type(accelerator).teardowns if isinstance(accelerator, CountingCPU) else None,
    }


def sleep(runner: Runner, pid_dir: str) -> None:
    """Announce this worker, then wait (for Ctrl-C)."""
    Path(pid_dir, f"worker-{os.getpid()}").touch()
    time.sleep(60)


#: Far above ATen's grain size (32768 elements): an elementwise op this big runs as an OpenMP parallel region.
PARALLEL_ELEMENTS = 4_000_000


def parallel_op(runner: Runner) -> dict[str, Any]:
    """Run an op big enough to go parallel; report the intra-op thread count of this worker."""
    total = (torch.ones(PARALLEL_ELEMENTS) * 2).sum().item()
    return {"sum": total, "threads": torch.get_num_threads()}


def note_wrappers_at_group_destroy(runner: Runner, folder: str) -> None:
    """Set up a DDP module and return; when teardown destroys the group, write how many DDP wrappers are alive."""
    wrapped = runner.setup(model())
    alive = weakref.WeakSet([wrapped])
    destroy = dist.destroy_process_group

    def noting(*args: Any, **kwargs: Any) -> None:
        gc.collect()
        Path(folder, f"rank{runner.global_rank}").write_text(str(len(alive)))
        destroy(*args, **kwargs)

    # Patched in this forked worker only; the strategy looks the function up on the module at teardown.
    dist.destroy_process_group = noting
