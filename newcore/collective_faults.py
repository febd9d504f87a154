"""The Runner's process-group timeout, and collectives that fail by naming the ranks that were missing.

torch's own error for a hung collective on Gloo is a ``RuntimeError`` such as "Timed out waiting 3000ms
for recv operation to complete", which says neither which collective nor which rank is to blame. When a
collective fails, every rank that took part reports itself in the job's store (the TCP store the process
group was formed through, served by rank zero's process even while its main thread is stuck); the ranks
that have not reported a moment later are the ones that never arrived, or that left.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any, Protocol, runtime_checkable

import torch.distributed as dist

from newcore.exceptions import MisconfigurationException

#: Torch's messages for a collective that waited too long, and for one whose peer went away.
_TIMED_OUT = re.compile(r"time[ds]? ?out", re.IGNORECASE)
_PEER_LEFT = re.compile(r"connection (closed|reset)|broken pipe|socket closed|end of file", re.IGNORECASE)
_PREFIX = "newcore/collective-failed/"


class CollectiveError(RuntimeError):
    """A collective failed (it timed out, or a peer left); the message names the ranks that did not take part."""

    def __init__(self, message: str, missing: list[int] | None) -> None:
        super().__init__(message)
        #: Global ranks that had not reported the failure when this rank looked; ``None`` if unknown.
        self.missing = missing

    def __reduce__(self) -> tuple[Any, ...]:
        # Spawned workers send their errors to the launcher pickled.
        return type(self), (str(self), self.missing)


@runtime_checkable
class _Timed(Protocol):
    timeout: timedelta


class _Ranked(Protocol):
    @property
    def global_rank(self) -> int: ...
    @property
    def world_size(self) -> int: ...


def parse_timeout(timeout: Any) -> timedelta | None:
    """``Runner(timeout=...)`` as a :class:`~datetime.timedelta`: seconds (int/float) or a timedelta; ``None`` stays."""
    if timeout is None:
        return None
    if isinstance(timeout, timedelta):
        seconds = timeout.total_seconds()
    elif isinstance(timeout, (int, float)) and not isinstance(timeout, bool):
        seconds = float(timeout)
    else:
        raise MisconfigurationException(
            f"`timeout={timeout!r}` is neither seconds nor a `datetime.timedelta`."
            " Pass e.g. `timeout=600` or `timeout=timedelta(minutes=10)`."
        )
    if not math.isfinite(seconds) or seconds <= 0:
        raise MisconfigurationException(
            f"`timeout={timeout!r}` must be a positive, finite duration: it is how long a collective waits for"
            " the other ranks before failing. Pass e.g. `timeout=600`, or leave it unset for torch's 30 minutes."
        )
    return timeout if isinstance(timeout, timedelta) else timedelta(seconds=seconds)


def apply_timeout(strategy: object, timeout: timedelta | None) -> None:
    """Give ``strategy`` the process-group timeout; strategies without a process group have nothing to time out."""
    if timeout is not None and isinstance(strategy, _Timed):
        strategy.timeout = timeout


def looks_distributed(error: BaseException) -> bool:
    """Whether ``error`` reads like a collective that timed out or lost a peer (not a user's own error)."""
    text = str(error)
    return isinstance(error, RuntimeError) and bool(_TIMED_OUT.search(text) or _PEER_LEFT.search(text))


@contextmanager
def naming_missing_ranks(strategy: _Ranked, what: str, *, any_error: bool = True) -> Iterator[None]:
    """Turn a failed collective inside the block into a :class:`CollectiveError` naming the missing ranks.

    ``any_error=False`` (used around a backward pass, whose errors are mostly the user's) converts only
    errors that read like a timeout or a lost peer.
    """
    try:
        yield
    except RuntimeError as error:
        if isinstance(error, CollectiveError) or not dist.is_initialized():
            raise
        if not (any_error or looks_distributed(error)):
            raise
        raise _explain(strategy, what, error) from error


def _explain(strategy: _Ranked, what: str, error: RuntimeError) -> CollectiveError:
    rank, size = strategy.global_rank, strategy.world_size
    timeout: timedelta | None = getattr(strategy, "timeout", None)
    timed_out = bool(_TIMED_OUT.search(str(error)))
    # Ranks that arrived time out within about the time they arrived apart; a lost peer is seen by all at once.
    seconds = 0.0 if timeout is None or not timed_out else timeout.total_seconds()
    window = min(5.0, max(1.0, seconds / 10))
    missing = _absent_ranks(rank, size, window)
    if timed_out:
        how = f"timed out after {_seconds(timeout)} (the process group timeout, `Runner(timeout=...)`)"
    else:
        how = "failed"
    if missing is None:
        who = "the job's store could not be reached to find out which ranks were missing"
    elif missing:
        ranks = ", ".join(map(str, missing))
        who = f"rank{'s' if len(missing) > 1 else ''} {ranks} did not take part"
        who += f" (no report from {'them' if len(missing) > 1 else 'it'} within {window:g} s of this failure)"
    else:
        who = "every rank reported the same failure (mismatched collectives, or a network problem)"
    first_line = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return CollectiveError(f"Rank {rank}: `{what}` {how}; {who}. torch.distributed said: {first_line}", missing)


def _seconds(timeout: timedelta | None) -> str:
    return "the timeout" if timeout is None else f"{timeout.total_seconds():g} s"


def _absent_ranks(rank: int, world_size: int, window: float) -> list[int] | None:
    """Report this rank's failure in the store, wait ``window`` for the others; the ranks that stay silent."""
    try:
        store: Any = dist.distributed_c10d._get_default_store()
        store.set(f"{_PREFIX}{rank}", "1")
        deadline = time.monotonic() + window
        while True:
            reported = {r for r in range(world_size) if store.check([f"{_PREFIX}{r}"])}
            if len(reported) == world_size or time.monotonic() > deadline:
                return [r for r in range(world_size) if r not in reported]
            time.sleep(0.05)
    except Exception:  # the store lives in rank zero's process, which may be gone
        return None
