"""``Runner.launch()`` without a function (Lightning Fabric's style): the code after the call is the training.

Under ``ddp`` started as ``python train.py``, rank 0 starts the other local ranks (they re-run the
script, find their rank in the environment and return from ``launch()`` too), then returns and trains;
its launcher's watcher stays on until :meth:`Runner.teardown` (or the end of ``with runner:``), which
waits for the other ranks, or stops them if rank 0 failed, and raises what ``launch(fn)`` raises.

A process started by others as one rank (the script launcher's children, ``torchrun``, SLURM) gets the
handling :mod:`newcore.launchers.joined` gives a function: SIGTERM raises ``SystemExit`` once, it dies
with its launcher, and its error is written where its starter reads it.

A script that ends without ``teardown``, or with an uncaught exception, still ends the launch: an
``atexit`` hook and ``sys.excepthook`` do it, so no rank is left behind and the error names the failed rank.
"""

from __future__ import annotations

import atexit
import os
import sys
import traceback
from collections.abc import Callable
from types import TracebackType
from typing import Any

from newcore import environ
from newcore.launchers.joined import LAUNCHER_PID, _record
from newcore.launchers.signals import die_with_launcher, install_stop_once
from newcore.launchers.subprocess_script import _SubprocessScriptLauncher


class Launched:
    """A launch without a function, open until :meth:`end`."""

    def __init__(self, end: Callable[[BaseException | None], None]) -> None:
        self._end: Callable[[BaseException | None], None] | None = end
        self._previous_hook = sys.excepthook
        sys.excepthook = self._excepthook
        atexit.register(self._at_exit)

    def end(self, error: BaseException | None) -> None:
        """Finish the launch (first call only); ``error``: what stopped this process's training, if anything.

        Raises what ``Runner.launch(fn)`` would have raised, e.g. the ``WorkerFailedError`` of a failed rank.
        """
        end, self._end = self._end, None
        if end is None:
            return
        if sys.excepthook == self._excepthook:
            sys.excepthook = self._previous_hook
        atexit.unregister(self._at_exit)
        end(error)

    def _excepthook(self, kind: type[BaseException], error: BaseException, tb: TracebackType | None) -> None:
        # The script did not catch it, so `with runner:` was not used: end the launch here.
        try:
            self.end(error)
        except BaseException as replacement:
            kind, error, tb = type(replacement), replacement, replacement.__traceback__
        self._previous_hook(kind, error, tb)

    def _at_exit(self) -> None:
        # The script ended without `teardown()`: wait for (or stop) the other ranks before the interpreter goes.
        try:
            self.end(None)
        except BaseException:
            traceback.print_exc()
            sys.stderr.flush()
            sys.stdout.flush()
            os._exit(1)  # the job failed: a plain exit status 0 would hide it


def launch_without_function(strategy: Any) -> Launched | None:
    """Start what this process needs to train without a function; ``None`` where there is nothing to end.

    The caller checked that the strategy's launcher (if any) is the script launcher.
    """
    launcher = strategy.launcher
    env = getattr(strategy, "cluster_environment", None)
    if env is not None and env.creates_processes_externally:
        return _join(env)
    if isinstance(launcher, _SubprocessScriptLauncher):
        return Launched(launcher.start().end)
    return None


def _join(env: Any) -> Launched:
    restore = install_stop_once()
    launcher = environ.get(LAUNCHER_PID)
    if launcher is not None:
        die_with_launcher(int(launcher))

    def end(error: BaseException | None) -> None:
        restore()
        if isinstance(error, Exception):
            _record(error)
        if error is not None:
            raise error

    return Launched(end)
