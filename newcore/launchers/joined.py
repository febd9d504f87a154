"""Processes that someone else started as ranks of the job: ``ddp``'s re-run script, ``torchrun``, SLURM.

Such a process runs the training itself (no launcher of ours supervises it from inside), so it is here
that SIGTERM (from ``torchrun`` stopping the survivors of a failed job, ``scancel``, or newcore's own
launcher) becomes ``SystemExit`` and the teardown runs, and that a failure is written where the one who
started the process reads it: ``torchrun``'s error file (shown in its failure summary), or the file
newcore's script launcher gave the process.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from newcore import environ
from newcore.launchers.signals import die_with_launcher, install_stop_once

#: Set by the script launcher in the environment of the ranks it starts (never in its own).
LAUNCHER_PID = "NEWCORE_LAUNCHER_PID"
ERROR_FILE = "NEWCORE_ERROR_FILE"


def run_joined(strategy: object, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)``; in a process started by others as one rank, with the handling above."""
    env = getattr(strategy, "cluster_environment", None)
    if env is None or not env.creates_processes_externally:
        return fn(*args, **kwargs)
    with _signals_stop_once():
        launcher = environ.get(LAUNCHER_PID)
        if launcher is not None:
            die_with_launcher(int(launcher))
        try:
            return fn(*args, **kwargs)
        except Exception as error:
            _record(error)
            raise


@contextmanager
def _signals_stop_once() -> Iterator[None]:
    """SIGTERM raises ``SystemExit`` (once) while the block runs, unless the user installed a handler of their own."""
    restore = install_stop_once()
    try:
        yield
    finally:
        restore()


def _record(error: Exception) -> None:
    """Write ``error`` where the process's starter looks for it (called inside ``except``)."""
    ours = environ.get(ERROR_FILE)
    if ours is not None:
        with contextlib.suppress(OSError):  # the launcher still reports the exit code
            Path(ours).write_text(f"{type(error).__name__}: {error}")
    if environ.has("TORCHELASTIC_ERROR_FILE"):
        from torch.distributed.elastic.multiprocessing.errors import get_error_handler

        get_error_handler().record_exception(error)
