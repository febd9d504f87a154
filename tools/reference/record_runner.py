"""Every case in its own forked child, ``jobs`` at a time, each sending one JSON object back through a pipe.

The parent has imported Lightning once (``record_lightning._import_lightning``); a child runs one case
(``record_case._run_case`` unless told otherwise) and exits without cleanup, so nothing leaks between cases.
"""

from __future__ import annotations

import json
import os
import select
import signal
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any

from record_case import _AnyCase, _run_case
from record_machine import _vendor_import_sites

_RunCase = Callable[[_AnyCase, dict[str, list[str]]], dict[str, Any]]


def run_all(
    selected: list[_AnyCase], jobs: int, timeout: float, run_case: _RunCase | None = None
) -> dict[str, dict[str, Any]]:
    """Each case in a forked child, ``jobs`` at a time; ``run_case`` (default :func:`_run_case`) runs one."""
    sites = _vendor_import_sites()
    results: dict[str, dict[str, Any]] = {}
    pending = list(selected)
    running: dict[int, tuple[_AnyCase, int, float, bytearray]] = {}  # pid -> (case, fd, start, buffer)
    done = 0
    while pending or running:
        while pending and len(running) < jobs:
            case = pending.pop(0)
            read_fd, write_fd = os.pipe()
            pid = os.fork()
            if pid == 0:  # child
                os.close(read_fd)
                _child(case, write_fd, sites, run_case or _run_case)  # never returns
            os.close(write_fd)
            running[pid] = (case, read_fd, time.monotonic(), bytearray())
        fds = {entry[1]: pid for pid, entry in running.items()}
        ready, _, _ = select.select(list(fds), [], [], 0.5)
        for fd in ready:
            pid = fds[fd]
            chunk = os.read(fd, 1 << 16)
            if chunk:
                running[pid][3].extend(chunk)
                continue
            case, _, start, buffer = running.pop(pid)
            os.close(fd)
            _, status = os.waitpid(pid, 0)
            results[case.id] = _decode(buffer, status)
            done += 1
            if done % 50 == 0:
                print(f"  {done}/{len(selected)} cases", file=sys.stderr, flush=True)
        now = time.monotonic()
        for pid, (case, fd, start, _) in list(running.items()):
            if now - start > timeout:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                os.close(fd)
                running.pop(pid)
                results[case.id] = {"outcome": "error", "error": {"type": "Timeout", "message": f"> {timeout}s"}}
                done += 1
    return results


def _decode(buffer: bytearray, status: int) -> dict[str, Any]:
    if buffer:
        try:
            return json.loads(buffer.decode("utf-8"))
        except ValueError:
            pass
    return {
        "outcome": "error",
        "error": {"type": "ChildCrashed", "message": f"wait status {status}, {len(buffer)} bytes of output"},
    }


# --------------------------------------------------------------------------------------------
# child side
# --------------------------------------------------------------------------------------------


def _child(case: _AnyCase, write_fd: int, sites: dict[str, list[str]], run_case: _RunCase) -> None:
    code = 0
    try:
        # Keep the child's own stdout/stderr quiet; everything of interest is captured.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        result = run_case(case, sites)
        payload = json.dumps(result, sort_keys=True).encode("utf-8")
    except BaseException as exc:
        payload = json.dumps(
            {
                "outcome": "error",
                "error": {"type": "RecorderBug", "message": f"{type(exc).__name__}: {exc}"},
                "traceback": traceback.format_exc(),
            }
        ).encode("utf-8")
        code = 1
    view = memoryview(payload)
    while view:
        written = os.write(write_fd, view)
        view = view[written:]
    os.close(write_fd)
    os._exit(code)
