"""Launching ``ddp``: the script re-runs itself once per extra local process."""

from __future__ import annotations

import _thread
import contextlib
import os
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from newcore.launchers.joined import ERROR_FILE, LAUNCHER_PID
from newcore.launchers.launcher import Launcher, WorkerFailedError, stop_processes
from newcore.launchers.signals import (
    SignalScope,
    Terminated,
    _ChildFailed,
    describe_exit,
    relay_to_main,
    signal_name,
)

if TYPE_CHECKING:
    from newcore.plugins.environments.cluster_environment import ClusterEnvironment


class _SubprocessScriptLauncher(Launcher):
    """Starts ``num_processes - 1`` copies of the running script on this node; rank 0 is the current process.

    Each child re-executes ``sys.argv`` (or ``python -m module``) with ``MASTER_ADDR``, ``MASTER_PORT``,
    ``NODE_RANK``, ``LOCAL_RANK`` and ``WORLD_SIZE`` in *its* environment (never in ours), which is
    why this launcher cannot work in a notebook: there is no script to re-run.

    A child that fails (an exception, which it writes to a file for us, or killed) interrupts rank 0
    and makes :meth:`launch` raise a :class:`WorkerFailedError` naming that rank and its error. SIGINT and
    SIGTERM sent to rank 0 stop the children too; :meth:`launch` then raises ``KeyboardInterrupt`` or
    :class:`~newcore.launchers.signals.Terminated`. Children get SIGTERM at once (their teardown runs)
    and SIGKILL ``grace`` seconds later; a child whose rank 0 dies gets SIGTERM from the kernel (Linux).
    """

    def __init__(
        self, cluster_environment: ClusterEnvironment | None, num_processes: int, num_nodes: int, grace: float = 5.0
    ) -> None:
        self.cluster_environment = cluster_environment
        self.num_processes = num_processes
        self.num_nodes = num_nodes
        self.grace = grace

    @property
    def is_interactive_compatible(self) -> bool:
        return False

    def launch(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        env = self.cluster_environment
        if env is not None and env.creates_processes_externally:
            return fn(*args, **kwargs)
        ranks = self.start()
        try:
            result = fn(*args, **kwargs)
        except BaseException as error:
            ranks.end(error)
            raise  # end() always raises; this keeps the type checker informed
        ranks.end(None)
        return result

    def start(self) -> _ScriptRanks:
        """Start the other local ranks and watch them; the caller runs rank 0 and then calls ``end``.

        ``launch(fn)`` is ``start``, ``fn`` and ``end``. ``Runner.launch()`` without a function (Fabric's
        style) returns between the two: the code after it is rank 0's training.
        """
        return _ScriptRanks(self)

    def _child_ranks(self) -> range:
        return range(1, self.num_processes)

    def _child_env(self, local_rank: int, errors: str) -> dict[str, str]:
        env = self.cluster_environment
        return {
            **os.environ,
            "MASTER_ADDR": env.main_address if env is not None else "127.0.0.1",
            "MASTER_PORT": str(env.main_port) if env is not None else "29500",
            "NODE_RANK": str(env.node_rank() if env is not None else 0),
            "LOCAL_RANK": str(local_rank),
            "WORLD_SIZE": str(self.num_processes * self.num_nodes),
            LAUNCHER_PID: str(os.getpid()),
            ERROR_FILE: str(Path(errors, f"rank{local_rank}.txt")),
        }

    def __repr__(self) -> str:
        return f"{type(self).__name__}(num_processes={self.num_processes}, num_nodes={self.num_nodes})"


class _ScriptRanks:
    """The children of one launch, the thread watching them and rank 0's signal handlers, until :meth:`end`."""

    def __init__(self, launcher: _SubprocessScriptLauncher) -> None:
        self._errors = tempfile.TemporaryDirectory(prefix="newcore-ranks-")
        self.signals = SignalScope().__enter__()
        try:
            self.children = [
                _Child(
                    rank,
                    subprocess.Popen(_command(), env=launcher._child_env(rank, self._errors.name)),
                    self._errors.name,
                )
                for rank in launcher._child_ranks()
            ]
        except BaseException:
            self._close()
            raise
        self.grace = launcher.grace
        self.watcher = _Watcher(self.children, self.signals, self.grace)
        self.watcher.start()
        self.ended = False

    def end(self, error: BaseException | None) -> None:
        """Rank 0 is done: wait for the children, or, if ``error`` stopped rank 0, stop them and raise.

        Raises what ``launch`` raises: a :class:`WorkerFailedError` naming the failed rank, ``error``
        itself, or :class:`Terminated`. Only the first call acts.
        """
        if self.ended:
            return
        self.ended = True
        try:
            if error is None:
                try:
                    for child in self.children:
                        child.join()
                except BaseException as interrupted:  # a child failed, or a signal came, while we waited
                    error = interrupted
            if error is not None:
                self.signals.disarm()
                self.watcher.stop()
                failed = [child for child in self.children if child.code]  # before we stop the others
                stop_processes(self.children, self.grace)
                replacement = _launch_error(error, failed, self.signals.received, len(self.children))
                if replacement is None:
                    raise error
                raise replacement from (None if isinstance(error, (_ChildFailed, Terminated)) else error)
        finally:
            self.signals.disarm()
            self.watcher.stop()
            # Read before the error files go.
            failures = "; ".join(child.describe() for child in self.children if child.code)
            self._close()
        if failures:
            raise WorkerFailedError(failures)

    def _close(self) -> None:
        self.signals.__exit__(None, None, None)
        self._errors.cleanup()


def _launch_error(
    error: BaseException, failed: list[_Child], received: int | None, children: int
) -> BaseException | None:
    """What :meth:`launch` raises after ``error`` stopped rank 0; ``None``: ``error`` itself."""
    if received is not None and isinstance(error, (KeyboardInterrupt, Terminated)):
        detail = f"stopped local ranks 1-{children}" if children > 1 else "stopped local rank 1"
        print(f"newcore: {signal_name(received)}: {detail}", file=sys.stderr, flush=True)
        return Terminated(received, detail) if isinstance(error, Terminated) else None
    if failed:
        return WorkerFailedError("; ".join(child.describe() for child in failed))
    if isinstance(error, _ChildFailed):
        return WorkerFailedError("A local rank failed, but had exited by the time rank 0 looked.")
    return None


def _command() -> list[str]:
    """How this program was started: ``python -m pkg.mod args`` or ``python script.py args``."""
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    if spec is not None and spec.name not in ("__main__", None):
        name = spec.name.removesuffix(".__main__")
        return [sys.executable, "-m", name, *sys.argv[1:]]
    return [sys.executable, *sys.argv]


class _Child:
    """A ``Popen`` with the ``multiprocessing.Process`` methods :func:`stop_processes` calls."""

    def __init__(self, rank: int, popen: subprocess.Popen[bytes], errors: str) -> None:
        self.rank = rank
        self.popen = popen
        self._error_file = Path(errors, f"rank{rank}.txt")

    @property
    def code(self) -> int | None:
        return self.popen.poll()

    def describe(self) -> str:
        """How this child failed: its exception if it wrote one, else how it ended."""
        code = self.code or 0
        with contextlib.suppress(OSError):
            reported = self._error_file.read_text().strip()
            if reported:
                return f"Local rank {self.rank} failed with {reported} ({describe_exit(code)}; traceback above)"
        return f"Local rank {self.rank} {describe_exit(code)} without reporting an error"

    def is_alive(self) -> bool:
        return self.popen.poll() is None

    def join(self, timeout: float | None = None) -> None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout)

    def terminate(self) -> None:
        self.popen.terminate()

    def kill(self) -> None:
        self.popen.kill()


class _Watcher(threading.Thread):
    """Interrupts the main thread (rank 0) as soon as a child exits with an error, or a signal arrives.

    If the main thread has not reacted ``grace`` seconds later (blocked inside torch, where Python runs
    no handler), the watcher stops the children itself and ends the process: a rank 0 stuck in a
    collective must not keep the job alive.
    """

    def __init__(self, children: list[_Child], signals: SignalScope, grace: float = 5.0) -> None:
        super().__init__(name="newcore-child-watcher", daemon=True)
        self.children = children
        self.signals = signals
        self.grace = grace
        self._stopped = threading.Event()
        self._echoes: Counter[int] = Counter()  # signals this thread sent to the main thread

    def run(self) -> None:
        reported = False
        pending: int | None = None  # the signal (or 0: a failed child) the main thread must react to
        deadline, handled = 0.0, 0
        while not self._stopped.is_set():
            for signum in self._signals_arrived(0.1):
                # The kernel may have given it to a thread of torch's: make sure the main thread sees it.
                if relay_to_main(signum, self._echoes) and pending is None:
                    pending, deadline, handled = signum, time.monotonic() + self.grace, self.signals.handled
            if not reported and any(child.code for child in self.children):
                reported = True
                if pending is None:
                    pending, deadline, handled = 0, time.monotonic() + self.grace, self.signals.handled
                self._interrupt_main()
            if pending is not None and time.monotonic() > deadline and self.signals.handled == handled:
                self._stop_for_main_thread(pending)

    def _signals_arrived(self, timeout: float) -> bytes:
        fd = self.signals.wakeup
        if fd is None:
            self._stopped.wait(timeout)
            return b""
        if select.select([fd], [], [], timeout)[0]:
            with contextlib.suppress(OSError):
                return os.read(fd, 64)
        return b""

    def _interrupt_main(self) -> None:
        if self.signals.installed:
            self._echoes[signal.SIGINT] += self.signals.child_failed()
        else:  # launched outside the main thread: the best Python offers
            _thread.interrupt_main()

    def _stop_for_main_thread(self, pending: int) -> None:
        what = "a local rank failed" if pending == 0 else f"received {signal_name(pending)}"
        failures = [child.describe() for child in self.children if child.code]
        stop_processes(self.children, 1.0)
        print(
            f"newcore: {what}, but rank 0 is blocked (in a collective?) and did not react within {self.grace:g} s:"
            f" stopped local ranks 1-{len(self.children)} and exiting. {'; '.join(failures)}",
            file=sys.stderr,
            flush=True,
        )
        os._exit(1 if pending == 0 else 128 + pending)

    def stop(self) -> None:
        self._stopped.set()
        if self.is_alive() and self is not threading.current_thread():
            self.join()
