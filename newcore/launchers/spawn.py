"""Launching ``ddp_spawn``/``ddp_fork``: worker processes created with :mod:`multiprocessing`."""

from __future__ import annotations

import multiprocessing
import pickle
import signal
import sys
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection, wait
from typing import TYPE_CHECKING, Any

from newcore.launchers.launcher import Launcher, WorkerFailedError, stop_processes

if TYPE_CHECKING:
    from multiprocessing.process import BaseProcess

    from newcore.strategies.parallel import ParallelStrategy


class _SpawnLauncher(Launcher):
    """Runs the training function in one new process per device, started with ``start_method``.

    ``"spawn"`` pickles the function and re-imports ``__main__`` in each child, which a notebook
    cannot offer. ``"fork"`` copies the parent instead and works interactively, but not once CUDA
    is initialised in the parent, hence the device check in :attr:`is_interactive_compatible`.

    The parent only supervises: the first worker to fail makes :meth:`launch` raise that worker's
    exception (its remote traceback chained as the cause) once every worker is gone. Survivors get
    ``grace`` seconds to notice on their own (a collective with a dead peer fails), then SIGTERM,
    which the workers turn into ``SystemExit`` so that their teardown still runs.
    """

    def __init__(self, strategy: ParallelStrategy, start_method: str = "spawn", grace: float = 5.0) -> None:
        self._strategy = strategy
        self._start_method = start_method
        self.grace = grace

    @property
    def start_method(self) -> str:
        """The :mod:`multiprocessing` start method of the workers."""
        return self._start_method

    @property
    def is_interactive_compatible(self) -> bool:
        # A forked child cannot re-initialise CUDA, so fork is only safe for CPU workers.
        return self._start_method == "fork" and self._strategy.root_device.type != "cuda"

    def launch(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        env = self._strategy.cluster_environment
        if env is not None:
            # Chosen here, once: every worker gets a copy of the environment with the same port.
            _ = env.main_port
        context: Any = multiprocessing.get_context(self._start_method)
        workers: list[tuple[BaseProcess, Connection]] = []
        try:
            for local_rank in range(self._strategy.num_processes):
                reader, writer = context.Pipe(duplex=False)
                process = context.Process(
                    target=_run_worker,
                    args=(self._strategy, local_rank, writer, fn, args, kwargs),
                    name=f"newcore-rank-{local_rank}",
                )
                process.start()
                writer.close()
                workers.append((process, reader))
            return _supervise(workers)
        except KeyboardInterrupt:
            # Ctrl-C: stop now, leaving the workers a moment to run their teardown.
            stop_processes([process for process, _ in workers], grace=1.0)
            raise
        finally:
            stop_processes([process for process, _ in workers], self.grace)
            for _, reader in workers:
                reader.close()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(start_method={self._start_method!r})"


def _supervise(workers: list[tuple[BaseProcess, Connection]]) -> Any:
    """Wait for every worker; return local rank zero's result or raise the first worker failure."""
    result: Any = None
    running = dict(enumerate(workers))
    while running:
        waitables: list[Any] = [process.sentinel for process, _ in running.values()]
        waitables += [reader for _, reader in running.values() if not reader.closed]
        wait(waitables)
        for rank, (process, reader) in list(running.items()):
            exited = not process.is_alive()
            message = _receive(reader)
            if message is None and exited:
                process.join()
                message = _receive(reader)  # sent just before exiting
            if message is not None and message[0] == "error":
                raise _rebuild(rank, message[1], message[2])
            if message is not None and rank == 0:
                result = message[1]
            if exited:
                if process.exitcode != 0:
                    raise WorkerFailedError(
                        f"Local rank {rank} exited with code {process.exitcode} without reporting an error."
                    )
                del running[rank]
    return result


def _receive(reader: Connection) -> tuple[Any, ...] | None:
    """The worker's message if one is waiting; ``None`` if nothing is (or the pipe was closed empty)."""
    try:
        if reader.closed or not reader.poll():
            return None
        message: tuple[Any, ...] = pickle.loads(reader.recv_bytes())
        return message
    except (EOFError, OSError):
        reader.close()
        return None


def _rebuild(rank: int, error: BaseException, remote_traceback: str) -> BaseException:
    error.__cause__ = WorkerFailedError(f"Local rank {rank} failed; its traceback:\n\n{remote_traceback}")
    return error


def _terminate_gracefully(signum: int, frame: object) -> None:
    # SystemExit unwinds the worker through its `finally` blocks, so the strategy's teardown runs.
    sys.exit(128 + signum)


def _run_worker(
    strategy: ParallelStrategy,
    local_rank: int,
    connection: Connection,
    fn: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> None:
    """The body of one worker process: set up its rank, run ``fn`` and report the outcome to the parent."""
    signal.signal(signal.SIGTERM, _terminate_gracefully)
    try:
        strategy._worker_setup(local_rank)
        result = fn(*args, **kwargs)
        _send(connection, ("ok", result if local_rank == 0 else None))
    except BaseException as error:
        remote = traceback.format_exc()
        try:
            _send(connection, ("error", error, remote))
        except Exception:  # the exception itself does not pickle: send its type and text
            _send(connection, ("error", WorkerFailedError(f"{type(error).__name__}: {error}"), remote))
        connection.close()
        sys.exit(1)
    connection.close()


def _send(connection: Connection, message: tuple[Any, ...]) -> None:
    # Plain pickle, not multiprocessing's: torch registers shared-memory reducers there, whose tensors
    # can no longer be rebuilt once this worker has exited.
    connection.send_bytes(pickle.dumps(message))
