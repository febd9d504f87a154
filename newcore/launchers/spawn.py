"""Launching ``ddp_spawn``/``ddp_fork``: worker processes created with :mod:`multiprocessing`."""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import sys
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection, wait
from typing import TYPE_CHECKING, Any

from newcore.launchers.launcher import Launcher, WorkerFailedError, stop_processes
from newcore.launchers.signals import (
    SignalScope,
    Terminated,
    describe_exit,
    die_with_launcher,
    install_stop_once,
    signal_name,
)

if TYPE_CHECKING:
    from multiprocessing.process import BaseProcess

    from newcore.strategies.parallel import ParallelStrategy


class _SpawnLauncher(Launcher):
    """Runs the training function in one new process per device, started with ``start_method``.

    ``"spawn"`` pickles the function and re-imports ``__main__`` in each child, which a notebook
    cannot offer. ``"fork"`` copies the parent instead and works interactively, but not once CUDA
    is initialised in the parent, hence the device check in :attr:`is_interactive_compatible`.

    The parent only supervises: the first worker to fail (an exception, or killed) makes :meth:`launch`
    raise that worker's exception (its remote traceback chained as the cause) once every worker is gone.
    Survivors get SIGTERM at once, which the workers turn into ``SystemExit`` so that their teardown
    still runs, and SIGKILL ``grace`` seconds later if they are still there (blocked in a collective).
    SIGINT and SIGTERM sent to the parent stop the workers the same way; the parent then raises
    ``KeyboardInterrupt`` or :class:`~newcore.launchers.signals.Terminated` (exit status 143). A worker
    whose parent dies gets SIGTERM from the kernel (Linux).

    A forked worker runs one intra-op thread (``torch.set_num_threads(1)``, as torch's forked DataLoader
    workers do): OpenMP's thread pool does not survive ``fork``, and once the parent has run a parallel
    region, the child's first parallel op would wait for threads that no longer exist, forever.
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
        with SignalScope() as signals:
            try:
                for local_rank in range(self._strategy.num_processes):
                    reader, writer = context.Pipe(duplex=False)
                    process = context.Process(
                        target=_run_worker,
                        args=(self._strategy, local_rank, writer, fn, args, kwargs, os.getpid(), self._start_method),
                        name=f"newcore-rank-{local_rank}",
                    )
                    process.start()
                    writer.close()
                    workers.append((process, reader))
                return _supervise(workers)
            except (KeyboardInterrupt, Terminated) as interrupt:
                signals.disarm()
                stop_processes([process for process, _ in workers], self.grace)
                detail = f"stopped local ranks 0-{len(workers) - 1}" if workers else "no worker had started"
                print(
                    f"newcore: {signal_name(getattr(interrupt, 'signum', signal.SIGINT))}: {detail}",
                    file=sys.stderr,
                    flush=True,
                )
                if isinstance(interrupt, Terminated):
                    raise Terminated(interrupt.signum, detail) from None
                raise
            finally:
                signals.disarm()
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
                if process.exitcode:
                    raise WorkerFailedError(
                        f"Local rank {rank} {describe_exit(process.exitcode)} without reporting an error."
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
    if hasattr(error, "add_note"):  # Python 3.11+: shown under the traceback
        error.add_note(f"(raised on local rank {rank})")
    return error


def _run_worker(
    strategy: ParallelStrategy,
    local_rank: int,
    connection: Connection,
    fn: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    launcher_pid: int,
    start_method: str = "spawn",
) -> None:
    """The body of one worker process: set up its rank, run ``fn`` and report the outcome to the parent."""
    if start_method == "fork":
        import torch

        torch.set_num_threads(1)  # see _SpawnLauncher: the parent's OpenMP pool is gone in this process
    # Forked workers inherit the launcher's handlers (and its wakeup fd); spawned ones start with Python's.
    signal.set_wakeup_fd(-1)
    install_stop_once(replace_any=True)
    die_with_launcher(launcher_pid)
    try:
        strategy._worker_setup(local_rank)
        result = fn(*args, **kwargs)
        _send(connection, ("ok", result if local_rank == 0 else None))
    except BaseException as error:
        remote = traceback.format_exc()
        try:
            pickle.loads(pickle.dumps(error))  # the parent must be able to rebuild it, not just receive it
            _send(connection, ("error", error, remote))
        except Exception:  # the exception does not pickle (or unpickle): send its type and text
            _send(connection, ("error", WorkerFailedError(f"{type(error).__name__}: {error}"), remote))
        connection.close()
        sys.exit(1)
    connection.close()


def _send(connection: Connection, message: tuple[Any, ...]) -> None:
    # Plain pickle, not multiprocessing's: torch registers shared-memory reducers there, whose tensors
    # can no longer be rebuilt once this worker has exited.
    connection.send_bytes(pickle.dumps(message))
