"""Launching ``ddp``: the script re-runs itself once per extra local process."""

from __future__ import annotations

import _thread
import contextlib
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from newcore.launchers.launcher import Launcher, WorkerFailedError, stop_processes

if TYPE_CHECKING:
    from newcore.plugins.environments.cluster_environment import ClusterEnvironment


class _SubprocessScriptLauncher(Launcher):
    """Starts ``num_processes - 1`` copies of the running script on this node; rank 0 is the current process.

    Each child re-executes ``sys.argv`` (or ``python -m module``) with ``MASTER_ADDR``, ``MASTER_PORT``,
    ``NODE_RANK``, ``LOCAL_RANK`` and ``WORLD_SIZE`` in *its* environment (never in ours), which is
    why this launcher cannot work in a notebook: there is no script to re-run. A child that fails
    interrupts rank 0 and makes :meth:`launch` raise; the other children are stopped.
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
        children = [_Child(subprocess.Popen(_command(), env=self._child_env(rank))) for rank in self._child_ranks()]
        watcher = _Watcher(children)
        watcher.start()
        try:
            result = fn(*args, **kwargs)
            for child in children:
                child.join()
        except BaseException as error:
            watcher.stop()
            stop_processes(children, self.grace)
            if watcher.failure is not None:
                raise WorkerFailedError(watcher.failure) from error
            raise
        finally:
            watcher.stop()
        failed = [f"local rank {i + 1} exited with code {c.code}" for i, c in enumerate(children) if c.code]
        if failed:
            raise WorkerFailedError("; ".join(failed))
        return result

    def _child_ranks(self) -> range:
        return range(1, self.num_processes)

    def _child_env(self, local_rank: int) -> dict[str, str]:
        env = self.cluster_environment
        return {
            **os.environ,
            "MASTER_ADDR": env.main_address if env is not None else "127.0.0.1",
            "MASTER_PORT": str(env.main_port) if env is not None else "29500",
            "NODE_RANK": str(env.node_rank() if env is not None else 0),
            "LOCAL_RANK": str(local_rank),
            "WORLD_SIZE": str(self.num_processes * self.num_nodes),
        }

    def __repr__(self) -> str:
        return f"{type(self).__name__}(num_processes={self.num_processes}, num_nodes={self.num_nodes})"


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

    def __init__(self, popen: subprocess.Popen[bytes]) -> None:
        self.popen = popen

    @property
    def code(self) -> int | None:
        return self.popen.poll()

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
    """Interrupts the main thread (rank 0) as soon as a child exits with an error."""

    def __init__(self, children: list[_Child]) -> None:
        super().__init__(name="newcore-child-watcher", daemon=True)
        self.children = children
        self.failure: str | None = None
        self._stopped = threading.Event()

    def run(self) -> None:
        while not self._stopped.wait(0.2):
            for rank, child in enumerate(self.children, start=1):
                if child.code:
                    self.failure = f"Local rank {rank} exited with code {child.code}; see its output above."
                    _thread.interrupt_main()
                    return

    def stop(self) -> None:
        self._stopped.set()
        if self.is_alive():
            self.join()
