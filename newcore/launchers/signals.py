"""Signals around a launch: the launcher stops its workers on SIGINT/SIGTERM, workers die with their launcher.

A launcher (the parent of ``ddp_spawn`` workers, or rank zero of ``ddp``) installs :class:`SignalScope`
for the duration of the launch: SIGINT and SIGTERM become exceptions in its main thread, at most once, so
that the code stopping the workers runs to its end instead of being cut short by a second interrupt. A
worker asks the kernel for SIGTERM when its launcher dies (:func:`die_with_launcher`, Linux), so a
launcher killed with SIGKILL leaves no worker behind.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
from collections import Counter
from collections.abc import Callable
from types import FrameType
from typing import Any

#: ``prctl`` option: the signal this process gets when its parent thread exits (``<linux/prctl.h>``).
_PR_SET_PDEATHSIG = 1


class Terminated(SystemExit):
    """The launching process got SIGTERM (``kill``, ``docker stop``, a pod stop); its workers were stopped.

    A ``SystemExit`` with status ``128 + signal``, as a shell reports a process ended by that signal.
    """

    def __init__(self, signum: int, detail: str = "") -> None:
        super().__init__(128 + signum)
        self.signum = signum
        self.detail = detail

    def __str__(self) -> str:
        return f"Received {signal_name(self.signum)}{'; ' + self.detail if self.detail else ''}."


class _ChildFailed(BaseException):
    """Raised in the launcher's main thread when a watcher saw a worker fail (never leaves the launcher)."""


def signal_name(signum: int) -> str:
    """``"SIGTERM"`` for 15; the number where the platform has no name for it."""
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"


def describe_exit(code: int) -> str:
    """How a worker ended, from its exit code (negative: killed by that signal, as ``Popen`` reports it)."""
    if code < 0:
        return f"was killed by {signal_name(-code)}"
    if code > 128 and code - 128 in signal.valid_signals():
        return f"exited with code {code} (after {signal_name(code - 128)})"
    return f"exited with code {code}"


class SignalScope:
    """SIGINT/SIGTERM handlers for a launch; each raises once, then only records (see the module docstring).

    ``received`` is the first signal that arrived. :meth:`child_failed` lets a watcher thread interrupt
    the main thread (also out of a ``sleep``) with :class:`_ChildFailed`. Outside the main thread,
    Python cannot install handlers: the scope then does nothing.

    Python runs a handler only once the main thread is back in the interpreter, never while it is
    blocked inside torch (a collective waiting for a hung peer). :attr:`wakeup` is a pipe on which the
    C-level handler writes each signal's number at once, so a watcher thread can see a signal that no
    handler has acted on (``handled`` counts the handler's calls) and act itself.
    """

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self) -> None:
        self.received: int | None = None
        self.child_failure = False
        self.handled = 0
        self.wakeup: int | None = None
        self._armed = False
        self._previous: dict[int, Any] = {}
        self._pipe: tuple[int, int] | None = None
        self._previous_wakeup = -1

    def __enter__(self) -> SignalScope:
        if threading.current_thread() is threading.main_thread():
            for signum in self.SIGNALS:
                self._previous[signum] = signal.signal(signum, self._handle)
            self._armed = True
            self._pipe = os.pipe()
            os.set_blocking(self._pipe[1], False)
            self._previous_wakeup = signal.set_wakeup_fd(self._pipe[1], warn_on_full_buffer=False)
            if self._previous_wakeup != -1:  # an event loop owns it: leave it be
                signal.set_wakeup_fd(self._previous_wakeup)
            else:
                self.wakeup = self._pipe[0]
        return self

    def __exit__(self, *exc: object) -> None:
        self.disarm()
        if self._pipe is not None:
            if self.wakeup is not None:
                signal.set_wakeup_fd(-1)
            for fd in self._pipe:
                os.close(fd)
            self._pipe, self.wakeup = None, None
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)
        self._previous.clear()

    @property
    def installed(self) -> bool:
        return bool(self._previous)

    def disarm(self) -> None:
        """From now on, signals are only recorded: the launcher is already stopping its workers."""
        self._armed = False

    def child_failed(self) -> bool:
        """Interrupt the main thread because a worker failed (from a watcher thread); whether a SIGINT was sent."""
        self.child_failure = True
        if not (self.installed and self._armed):
            return False
        # A real signal, not _thread.interrupt_main: it also ends a sleep or a blocking wait.
        signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)
        return True

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        self.handled += 1
        real = not (signum == signal.SIGINT and self.child_failure and self.received is None)
        if real and self.received is None:
            self.received = signum
        if not self._armed:
            return
        previous = self._previous.get(signum)
        if real and callable(previous) and previous is not signal.default_int_handler:
            previous(signum, frame)  # the user's own handler decides
            return
        if real and previous == signal.SIG_IGN:
            return
        self._armed = False
        if not real:
            raise _ChildFailed
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        raise Terminated(signum)


def die_with_launcher(launcher_pid: int) -> None:
    """Ask for SIGTERM when the launcher dies; if it is already gone, terminate now (Linux only).

    SIGTERM rather than SIGKILL, so the worker's teardown can still run.
    """
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != launcher_pid:  # it died before we asked
        os.kill(os.getpid(), signal.SIGTERM)


#: Whether this process already began to stop on a signal (see :func:`stop_once`).
_stopping = False


def stop_once(signum: int, frame: object) -> None:
    """A worker's SIGINT/SIGTERM handler: the first raises (``KeyboardInterrupt``, or ``SystemExit(128 + n)``).

    Both unwind through ``finally`` blocks, so teardown runs. Later signals are ignored rather than cut
    that teardown short: a group signal reaches a worker and then its launcher's SIGTERM, and the
    launcher sends SIGKILL if the worker is still there after its grace period.
    """
    global _stopping
    if _stopping:
        return
    _stopping = True
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    sys.exit(128 + signum)


def install_stop_once(*, replace_any: bool = False) -> Callable[[], None]:
    """Install :func:`stop_once` for SIGINT and SIGTERM, and a :class:`_Relay`; return what undoes both.

    Only where Python's defaults are in place, unless ``replace_any`` (a forked worker, which inherited
    its launcher's handlers). Outside the main thread, nothing can be installed.
    """
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    replaced: list[tuple[int, Any]] = []
    for signum, default in ((signal.SIGINT, signal.default_int_handler), (signal.SIGTERM, signal.SIG_DFL)):
        if replace_any or signal.getsignal(signum) in (default, signal.SIG_DFL):
            replaced.append((signum, signal.signal(signum, stop_once)))
    read, write = os.pipe()
    os.set_blocking(write, False)
    relay = signal.set_wakeup_fd(write, warn_on_full_buffer=False) == -1 and bool(replaced)
    if relay:
        _Relay(read).start()
    else:  # an event loop owns the wakeup fd (or there is nothing to relay): leave it be
        signal.set_wakeup_fd(-1)
        os.close(read)

    def restore() -> None:
        if relay:
            signal.set_wakeup_fd(-1)
        os.close(write)  # the relay reads end-of-file and closes its end
        for signum, handler in replaced:
            signal.signal(signum, handler)

    return restore


class _Relay(threading.Thread):
    """Re-sends SIGINT/SIGTERM to the main thread, where Python runs signal handlers.

    The kernel may hand a process-wide signal to any thread that does not block it, e.g. one of
    torch's; the handler is then only flagged, and a main thread inside ``time.sleep`` (or any wait)
    would not wake to run it. The C-level handler writes each signal's number to the wakeup fd, from
    whatever thread; this thread reads it and signals the main thread itself, skipping its own echoes.
    """

    def __init__(self, fd: int) -> None:
        super().__init__(name="newcore-signal-relay", daemon=True)
        self.fd = fd
        self.echoes: Counter[int] = Counter()

    def run(self) -> None:
        try:
            while data := os.read(self.fd, 64):
                for signum in data:
                    relay_to_main(signum, self.echoes)
        except OSError:
            pass
        finally:
            os.close(self.fd)


def relay_to_main(signum: int, echoes: Counter[int]) -> bool:
    """Send ``signum`` (read from a wakeup fd) on to the main thread unless it is an echo of ours; whether sent."""
    if echoes[signum]:
        echoes[signum] -= 1
        return False
    if signum not in SignalScope.SIGNALS:
        return False
    echoes[signum] += 1
    try:
        signal.pthread_kill(threading.main_thread().ident or 0, signum)
    except OSError:  # the main thread is gone: the process is exiting anyway
        echoes[signum] -= 1
        return False
    return True
