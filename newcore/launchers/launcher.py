"""How a strategy starts the processes it trains in."""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, Protocol


class Launcher(ABC):
    """Starts the worker processes (or none, if a scheduler already did) and runs ``fn`` in them."""

    @property
    @abstractmethod
    def is_interactive_compatible(self) -> bool:
        """Whether this launcher works in a REPL or notebook, where ``__main__`` cannot be re-imported."""

    @abstractmethod
    def launch(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run ``fn(*args, **kwargs)`` in every process and return rank zero's result.

        The first process to fail makes ``launch`` raise its error, and no process outlives ``launch``.
        """


class WorkerFailedError(RuntimeError):
    """A worker process died without a Python exception to report, or carries a remote traceback."""


class _Stoppable(Protocol):
    def is_alive(self) -> bool: ...
    def join(self, timeout: float | None = None) -> None: ...
    def terminate(self) -> None: ...
    def kill(self) -> None: ...


def stop_processes(processes: Sequence[_Stoppable], grace: float, *, wait: float = 0.0) -> None:
    """Give ``processes`` ``wait`` seconds to exit by themselves, then SIGTERM, then (``grace`` later) SIGKILL.

    SIGTERM lets a worker run its teardown; SIGKILL ends one that cannot act on it, e.g. blocked inside a
    collective, where Python runs no signal handler until torch returns.
    """
    for signal_them, within in ((None, wait), ("terminate", grace), ("kill", None)):
        deadline = None if within is None else time.monotonic() + within
        for process in processes:
            if signal_them is not None and process.is_alive():
                getattr(process, signal_them)()
        for process in processes:
            process.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
