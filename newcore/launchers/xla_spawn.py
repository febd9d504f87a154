"""Launching ``tpu_spawn``: one process per TPU core (or chip), through ``torch_xla``'s multiprocessing."""

from __future__ import annotations

import multiprocessing
import queue
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import torch

from newcore.exceptions import MissingBackendError
from newcore.launchers.launcher import WorkerFailedError
from newcore.launchers.spawn import _SpawnLauncher

if TYPE_CHECKING:
    from newcore.strategies.parallel import ParallelStrategy


def _xla_spawn(what: str) -> Callable[..., Any]:
    """``torch_xla``'s ``xmp.spawn``: the launcher's one entry point into torch_xla (tests stand in for it here)."""
    try:
        import torch_xla.distributed.xla_multiprocessing as xmp
    except ImportError:
        raise MissingBackendError(what, package="torch_xla", install="pip install 'lightning-migrate[xla]'") from None
    spawn: Callable[..., Any] = xmp.spawn
    return spawn


class _XLASpawnLauncher(_SpawnLauncher):
    """Starts the TPU workers with ``xmp.spawn`` (forking) and returns local rank zero's result.

    Under PJRT, ``xmp.spawn`` takes ``nprocs=1`` (run in this process, on one device) or ``None``
    (one process per local device, as many as XLA finds); any other count is an error there, so a
    strategy over several devices asks for ``None``. With ``PJRT_DEVICE=CPU`` only ``nprocs=1`` runs.
    ``torch_xla`` is imported only when processes are launched, never when the launcher is built.
    """

    def __init__(self, strategy: ParallelStrategy) -> None:
        super().__init__(strategy, start_method="fork")

    @property
    def is_interactive_compatible(self) -> bool:
        # Forking is how XLA starts workers in Colab/Kaggle TPU notebooks; no CUDA is involved.
        return True

    def launch(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        spawn = _xla_spawn(f"strategy={self._strategy.name!r}")
        if self._strategy.num_processes == 1:
            # xmp.spawn runs fn in this very process: a list is enough to carry the result back.
            results: list[Any] = []
            spawn(self._wrapping_function, args=(fn, args, kwargs, results), nprocs=1, start_method=self._start_method)
            return _take(results)
        # The workers are pickled into a process pool even when forked, so the channel must pickle: a manager queue.
        with multiprocessing.Manager() as manager:
            channel = manager.Queue()
            spawn(
                self._wrapping_function, args=(fn, args, kwargs, channel), nprocs=None, start_method=self._start_method
            )
            return _take(channel)

    def _wrapping_function(
        self, process_index: int, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], results: Any
    ) -> None:
        """The body of each worker: ranks from XLA, then ``fn``; local rank zero reports its result.

        Local, not global, rank zero: on a multi-host pod every host's launcher waits for a result,
        and global rank zero lives on one host only.
        """
        self._strategy._worker_setup(process_index)
        result = fn(*args, **kwargs)
        if self._strategy.local_rank == 0:
            result = _to_cpu(result)  # XLA tensors cannot leave their process
            if isinstance(results, list):
                results.append(result)
            else:
                results.put(result)


def _take(results: Any) -> Any:
    """The result local rank zero sent; every worker has finished by now, so it is there or never will be."""
    try:
        return results.pop() if isinstance(results, list) else results.get_nowait()
    except (IndexError, queue.Empty):
        raise WorkerFailedError("The XLA workers finished, but local rank 0 reported no result.") from None


def _to_cpu(value: Any) -> Any:
    """``value`` with every tensor in it (through dicts, lists and tuples) moved to the CPU."""
    if isinstance(value, torch.Tensor):
        return value.cpu()
    if isinstance(value, dict):
        return {key: _to_cpu(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_to_cpu(item) for item in value)
    return value
