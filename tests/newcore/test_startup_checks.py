"""Start-up checks (issue 12.2): jobs that would hang or train every rank alone fail before any process meets.

Cluster variables come only through the ``machine`` fixture. Nothing here starts a process: the checks run
at the top of ``Runner.launch``, before the launcher or the process group.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest

from newcore import MisconfigurationException, Runner
from newcore.collective_faults import parse_timeout
from newcore.startup_checks import check_startup

SLURM_2_TASKS = {"SLURM_NTASKS": "2", "SLURM_NTASKS_PER_NODE": "2", "SLURM_NNODES": "1", "SLURM_NODELIST": "localhost"}
PORT = {"MASTER_ADDR": "127.0.0.1", "MASTER_PORT": "29511"}


def _row(id: str, flags: dict[str, Any], error: str | None, **machine: Any) -> Any:
    return pytest.param(flags, error, machine, id=id)


ROWS = [
    _row(
        "two nodes without MASTER_PORT",
        {"strategy": "ddp", "num_nodes": 2},
        "MASTER_PORT` is not set",
        env={"NODE_RANK": "1"},
    ),
    _row(
        "two nodes with a common MASTER_PORT", {"strategy": "ddp", "num_nodes": 2}, None, env={**PORT, "NODE_RANK": "1"}
    ),
    _row("one node picks its own port", {"strategy": "ddp_spawn", "devices": 2}, None),
    _row("SLURM with devices unset", {}, "--ntasks-per-node=2", cluster="slurm", env=SLURM_2_TASKS),
    _row("SLURM tasks match devices", {"devices": 2}, None, cluster="slurm", env=SLURM_2_TASKS),
    _row("SLURM 4 tasks for 2 devices", {"devices": 2}, "started 4 tasks", cluster="slurm"),
    _row("SLURM on 2 nodes, num_nodes unset", {"devices": 2}, "--nodes=2", cluster="slurm", env={"SLURM_NNODES": "2"}),
    _row(
        "SLURM one task per node, newcore launches",
        {"strategy": "ddp_spawn", "devices": 2},
        None,
        cluster="slurm",
        env={"SLURM_NTASKS": "1", "SLURM_NTASKS_PER_NODE": "1"},
    ),
    _row(
        "SLURM interactive shell is not the job's layout",
        {},
        None,
        cluster="slurm",
        env={**SLURM_2_TASKS, "SLURM_JOB_NAME": "bash"},
    ),
    _row("torchrun 2 per node with devices unset", {}, "torchrun started 2 processes per node", cluster="torchelastic"),
    _row("torchrun matches devices and num_nodes", {"devices": 2, "num_nodes": 2}, None, cluster="torchelastic"),
    _row("torchrun world size disagrees with num_nodes", {"devices": 2}, "(4 in all)", cluster="torchelastic"),
]


@pytest.mark.parametrize(("flags", "error", "hw"), ROWS)
def test_startup_check(machine: Any, flags: dict[str, Any], error: str | None, hw: dict[str, Any]) -> None:
    machine(**hw)
    runner = Runner(accelerator="cpu", **flags)
    if error is None:
        check_startup(runner.strategy)
    else:
        with pytest.raises(MisconfigurationException, match=re.escape(error)):
            runner.launch(_never_called)


def _never_called(runner: Runner) -> None:
    raise AssertionError("the start-up check should have failed first")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param(5, timedelta(seconds=5), id="int seconds"),
        pytest.param(0.5, timedelta(milliseconds=500), id="float seconds"),
        pytest.param(timedelta(minutes=2), timedelta(minutes=2), id="timedelta"),
        pytest.param(None, None, id="unset: the strategy's own"),
    ],
)
def test_timeout_accepts_seconds_and_timedelta(value: Any, expected: timedelta | None) -> None:
    assert parse_timeout(value) == expected


@pytest.mark.parametrize("value", ["10", True, 0, -3, float("inf"), float("nan"), timedelta(0), [5]])
def test_bad_timeout_names_the_flag(value: Any) -> None:
    with pytest.raises(MisconfigurationException, match=r"`timeout="):
        Runner(accelerator="cpu", timeout=value)


def test_timeout_reaches_the_process_group_strategy() -> None:
    assert Runner(accelerator="cpu", strategy="ddp_spawn", devices=2, timeout=7).strategy.timeout == timedelta(
        seconds=7
    )
    default = Runner(accelerator="cpu", strategy="ddp_spawn", devices=2).strategy.timeout
    assert default == timedelta(minutes=30)
    Runner(accelerator="cpu", timeout=7)  # one process: nothing to time out, nothing to refuse
