"""The fault matrix's cells and how one is run; shared by ``test_faults.py`` and ``benchmarks/fault_matrix.py``.

A cell starts the job as a user would (``python _faults.py ...`` in a session of its own, ``torchrun``,
or two SLURM tasks started by hand), waits until both ranks are up, applies the fault, and records how
long the job took to end after it, what it printed, which ranks tore down, and which of the job's
processes are left (every process of the job's sessions, found in ``/proc``). Nothing here imports torch:
the processes are all started fresh.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from newcore.plugins.environments.lightning_environment import find_free_network_port

FAULTS_SCRIPT = str(Path(__file__).with_name("_faults.py"))
#: Scheduler variables of the machine running the tests never reach the jobs; cells set their own.
_SCHEDULER_PREFIXES = ("SLURM_", "MASTER_", "NODE_RANK", "LOCAL_RANK", "TORCHELASTIC_", "GROUP_RANK", "WORLD_SIZE")
BASE_ENV = {k: v for k, v in os.environ.items() if not k.startswith(_SCHEDULER_PREFIXES)}
READY_WITHIN = 60.0
END_WITHIN = 60.0


@dataclass(frozen=True)
class Cell:
    """One (launcher, fault) pair and what must come of it."""

    launcher: str  # script | spawn | fork | torchrun | slurm
    fault: str  # raise | kill | hang | SIGINT | SIGTERM, with "-group" (to every process) or "-blocked"
    expect: tuple[str, ...]  # substrings of the job's output: the failed rank and what happened
    exit_codes: tuple[int, ...]  # what the launching process (every SLURM task) may exit with
    torn_down: tuple[int, ...] | None  # ranks whose teardown must have run (None: not decidable)

    @property
    def id(self) -> str:
        return f"{self.launcher}: {self.fault}"


@dataclass(frozen=True)
class Outcome:
    exit_codes: tuple[int | None, ...]
    seconds: float  # from the fault until every process started by the cell had exited
    output: str
    torn_down: tuple[int, ...]
    left: tuple[int, ...]  # pids of the job still alive (then killed by the harness)


RAISED = "ValueError: rank 1 failed on purpose"
KILLED = "Local rank 1 was killed by SIGKILL"
TIMED_OUT = "`barrier('after the fault')` timed out after 2 s"
MISSING = "rank 1 did not take part"
SIGINT_CODES, SIGTERM_CODES = (130, -signal.SIGINT), (143, -signal.SIGTERM)


def _own(launcher: str) -> list[Cell]:
    """The cells of a launcher of ours (the process the test starts is the launcher)."""
    stopped = f"newcore: SIGINT: stopped local rank{'' if launcher == 'script' else 's 0-1'}"
    stopped_term = stopped.replace("SIGINT", "SIGTERM")
    raised = (f"Local rank 1 failed with {RAISED}",) if launcher == "script" else (RAISED, "Local rank 1 failed")
    return [
        Cell(launcher, "raise", raised, (1,), (0, 1)),
        Cell(launcher, "kill", (KILLED,), (1,), (0,)),
        Cell(launcher, "hang", ("Rank 0: " + TIMED_OUT, MISSING), (1,), (0, 1)),
        Cell(launcher, "SIGINT", (stopped,), SIGINT_CODES, (0, 1)),
        Cell(launcher, "SIGINT-group", (), SIGINT_CODES, (0, 1)),
        Cell(launcher, "SIGTERM", (stopped_term,), SIGTERM_CODES, (0, 1)),
        Cell(launcher, "SIGTERM-group", (), SIGTERM_CODES, (0, 1)),
        # Both ranks wait in a receive that never completes: SIGTERM cannot run Python, SIGKILL follows.
        Cell(launcher, "SIGTERM-blocked", ("SIGTERM",), (*SIGTERM_CODES, 1), None),
    ]


CELLS: tuple[Cell, ...] = (
    *_own("script"),
    *_own("spawn"),
    *_own("fork"),
    # torchrun stops the other ranks itself; ours is the message (its error file) and the teardown.
    Cell("torchrun", "raise", (RAISED, "rank      : 1"), (1,), (0, 1)),
    Cell("torchrun", "kill", ("Signal 9 (SIGKILL)",), (1,), (0,)),
    Cell("torchrun", "hang", ("Rank 0: " + TIMED_OUT, MISSING), (1,), (0, 1)),
    Cell("torchrun", "SIGTERM", (), (1, *SIGTERM_CODES), (0, 1)),
    # Tasks started by hand as SLURM would: nobody stops the survivor, its next collective fails.
    Cell("slurm", "raise", (RAISED, "Rank 0: `barrier('after the fault')` failed", MISSING), (1,), (0, 1)),
    Cell("slurm", "kill", ("Rank 0: `barrier('after the fault')` failed", MISSING), (1, -signal.SIGKILL), (0,)),
    Cell("slurm", "SIGTERM-group", (), SIGTERM_CODES, (0, 1)),  # scancel: SIGTERM to every task
    # Rank 0 gives up after the Runner's timeout, naming rank 1; srun (--kill-on-bad-exit) then SIGTERMs the hung task.
    Cell("slurm", "hang", ("Rank 0: " + TIMED_OUT, MISSING), (1, *SIGTERM_CODES), (0, 1)),
)


def _worker_fault(fault: str) -> str:
    """What the ranks themselves do in a cell (signals come from outside, on sleeping or blocked ranks)."""
    if fault.startswith("SIG"):
        return "blocked" if fault.endswith("-blocked") else "sleep"
    return fault


def _start(cell: Cell, out: Path, output: BinaryIO) -> list[subprocess.Popen[bytes]]:
    fault = _worker_fault(cell.fault)
    common = {"stdout": output, "stderr": subprocess.STDOUT, "start_new_session": True}
    if cell.launcher in ("script", "spawn", "fork"):
        command = [sys.executable, FAULTS_SCRIPT, cell.launcher, fault, str(out)]
        return [subprocess.Popen(command, env=BASE_ENV, **common)]  # type: ignore[call-overload]
    port = str(find_free_network_port())
    if cell.launcher == "torchrun":
        run = ["-m", "torch.distributed.run", "--nproc-per-node=2", "--nnodes=1", "--monitor-interval=0.1"]
        run += ["--master-addr=127.0.0.1", f"--master-port={port}"]
        command = [sys.executable, *run, FAULTS_SCRIPT, "joined", fault, str(out)]
        return [subprocess.Popen(command, env=BASE_ENV, **common)]  # type: ignore[call-overload]
    slurm = {
        **BASE_ENV,
        **{"SLURM_NTASKS": "2", "SLURM_NTASKS_PER_NODE": "2", "SLURM_NNODES": "1", "SLURM_NODEID": "0"},
        **{"SLURM_JOB_ID": "4242", "SLURM_JOB_NAME": "train", "SLURM_NODELIST": "localhost", "MASTER_PORT": port},
    }
    command = [sys.executable, FAULTS_SCRIPT, "joined", fault, str(out), "then-barrier"]
    return [
        subprocess.Popen(command, env={**slurm, "SLURM_PROCID": str(r), "SLURM_LOCALID": str(r)}, **common)  # type: ignore[call-overload]
        for r in (0, 1)
    ]


def _ranks(out: Path) -> dict[int, int]:
    """pid -> rank of the ranks that are up (they write ``ready-<rank>-<pid>``)."""
    return {int(p.name.split("-")[2]): int(p.name.split("-")[1]) for p in out.glob("ready-*")}


def _apply(cell: Cell, processes: list[subprocess.Popen[bytes]]) -> None:
    if not cell.fault.startswith("SIG"):
        return  # the ranks fault by themselves
    if cell.fault.endswith("-blocked"):
        time.sleep(0.5)  # let both ranks enter their receive
    signum = signal.SIGINT if cell.fault.startswith("SIGINT") else signal.SIGTERM
    for process in processes:
        if cell.fault.endswith("-group"):
            os.killpg(process.pid, signum)
        else:
            os.kill(process.pid, signum)


def _kill_on_bad_exit(processes: list[subprocess.Popen[bytes]], deadline: float) -> None:
    """What srun does by default for a job step (``--kill-on-bad-exit``): a task that exits non-zero gets the
    other tasks SIGTERMed. Started by hand, the tasks have no srun: the harness plays its part."""
    while time.monotonic() < deadline and all(process.poll() is None for process in processes):
        time.sleep(0.05)
    if any(process.poll() not in (None, 0) for process in processes):
        for process in processes:
            if process.poll() is None:
                process.terminate()


def session_members(sessions: set[int]) -> list[int]:
    """Live (not zombie) processes whose session is one of ``sessions``: the job's, wherever reparented."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[3]) in sessions:
            found.append(int(entry.name))
    return sorted(found)


def run_cell(cell: Cell, out: Path) -> Outcome:
    """Run ``cell`` with ``out`` (an empty folder) for its markers and log; always leaves no process behind."""
    log = out / "output.log"
    with log.open("wb") as output:
        processes = _start(cell, out, output)
    sessions = {process.pid for process in processes}
    try:
        deadline = time.monotonic() + READY_WITHIN
        while len(_ranks(out)) < 2 and time.monotonic() < deadline and all(p.poll() is None for p in processes):
            time.sleep(0.05)
        start = time.monotonic()
        _apply(cell, processes)
        if cell.launcher == "slurm" and cell.fault == "hang":  # the other cells check rank 0 finds out by itself
            _kill_on_bad_exit(processes, start + END_WITHIN)
        for process in processes:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=max(0.1, start + END_WITHIN - time.monotonic()))
        seconds = time.monotonic() - start
        left = session_members(sessions)
        grace = time.monotonic() + 3.0  # multiprocessing's resource tracker exits just after its parent
        while left and time.monotonic() < grace:
            time.sleep(0.1)
            left = session_members(sessions)
    finally:
        for pid in session_members(sessions):
            os.kill(pid, signal.SIGKILL)
        for process in processes:
            if process.poll() is None:
                process.kill()
            process.wait()
    ranks = _ranks(out)
    torn_down = sorted(
        ranks[int(p.name.split("-")[1])] for p in out.glob("teardown-*") if int(p.name.split("-")[1]) in ranks
    )
    return Outcome(
        exit_codes=tuple(process.returncode for process in processes),
        seconds=seconds,
        output=log.read_text(errors="replace"),
        torn_down=tuple(torn_down),
        left=tuple(left),
    )
