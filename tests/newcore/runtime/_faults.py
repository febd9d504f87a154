"""A training script that misbehaves on purpose: ``python _faults.py LAUNCHER FAULT OUT_DIR``.

LAUNCHER: ``script`` (strategy ``ddp``: this script re-runs itself for rank 1), ``spawn``, ``fork``, or
``joined`` (the processes were started by ``torchrun`` or by the test as SLURM tasks). FAULT, once both
ranks are up and past a barrier (each writes ``ready-<rank>-<pid>`` to OUT_DIR):

- ``raise``: rank 1 raises ``ValueError``; ``kill``: rank 1 SIGKILLs itself;
- ``hang``: rank 1 sleeps while rank 0 waits for it in a barrier (``Runner(timeout=HANG_TIMEOUT)``);
- ``sleep``: both ranks sleep outside any collective, for the test to send signals;
- ``blocked``: both ranks wait in a receive that never completes (signals must escalate to SIGKILL).

After the fault, survivors sleep, or with ``then-barrier`` as a fourth argument enter a barrier (as a
rank of a hand-made SLURM job would, with nobody to stop it). Every rank's teardown leaves
``teardown-<pid>`` (see ``_workers.MarkerIO``).
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import torch

torch.set_num_threads(1)  # libgomp and fork: see the runtime tests' notes

import torch.distributed as dist  # noqa: E402

from newcore import Runner  # noqa: E402
from tests.newcore.runtime._workers import MarkerIO  # noqa: E402

STRATEGIES = {"script": "ddp", "spawn": "ddp_spawn", "fork": "ddp_fork", "joined": "ddp"}
#: Seconds a collective waits for a hung rank; other cells use a timeout no cell reaches.
HANG_TIMEOUT = 2.0
LONG = 60.0


def misbehave(runner: Runner, fault: str, out: str, then: str) -> None:
    rank = runner.global_rank
    runner.barrier()
    Path(out, f"ready-{rank}-{os.getpid()}").touch()
    if fault == "raise" and rank == 1:
        raise ValueError("rank 1 failed on purpose")
    if fault == "kill" and rank == 1:
        os.kill(os.getpid(), signal.SIGKILL)
    if fault == "hang":
        if rank == 0:
            runner.barrier("after the fault")
        time.sleep(LONG)
    if fault == "blocked":
        dist.recv(torch.zeros(1), src=1 - rank)
    if then == "then-barrier":
        runner.barrier("after the fault")
    time.sleep(LONG)


if __name__ == "__main__":
    launcher, fault, out = sys.argv[1:4]
    then = sys.argv[4] if len(sys.argv) > 4 else "then-sleep"
    runner = Runner(
        accelerator="cpu",
        strategy=STRATEGIES[launcher],
        devices=2,
        plugins=[MarkerIO(out)],
        timeout=HANG_TIMEOUT if fault == "hang" else LONG,
    )
    runner.launch(misbehave, fault, out, then)
