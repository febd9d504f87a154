"""Launches as users start them: ``python script.py`` (ddp re-runs it), two "nodes", SLURM-started tasks, Ctrl-C."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch

from newcore.plugins.environments.lightning_environment import find_free_network_port
from tests.newcore.runtime import _workers

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]

SCRIPT = str(Path(__file__).with_name("_script.py"))
#: What the scripts inherit: this environment minus the scheduler variables the tests set themselves.
BASE_ENV = {k: v for k, v in os.environ.items() if not k.startswith(("SLURM_", "MASTER_", "NODE_RANK", "LOCAL_RANK"))}


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, SCRIPT, *args], env={**BASE_ENV, **(env or {})})


def finish(*processes: subprocess.Popen[bytes]) -> None:
    for process in processes:
        assert process.wait(timeout=90) == 0


def results(out: Path, world_size: int) -> list[dict[str, object]]:
    found = [torch.load(out / f"rank{rank}.pt", weights_only=False) for rank in range(world_size)]
    expected = _workers.reference()
    for result in found:
        assert result["ranks"] == list(range(world_size))
        for name, value in expected.items():
            torch.testing.assert_close(result["state"][name], value, rtol=1e-5, atol=1e-6)
    return found


@pytest.mark.parametrize(
    "strategy",
    [
        pytest.param("ddp_find_unused_parameters_false", id="ddp re-runs the script for rank 1"),
        pytest.param("ddp_sharded_find_unused_parameters_false", id="ddp_sharded"),
        pytest.param("fsdp", id="fsdp with gloo on CPU"),
    ],
)
def test_script_launch_trains_like_one_process(strategy: str, tmp_path: Path) -> None:
    finish(run("train", strategy, "2", "1", str(tmp_path)))
    assert [r["local_rank"] for r in results(tmp_path, 2)] == [0, 1]


def test_two_nodes_over_loopback(tmp_path: Path) -> None:
    common = {"MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(find_free_network_port())}
    nodes = [
        run("train", "ddp_find_unused_parameters_false", "1", "2", str(tmp_path), env={**common, "NODE_RANK": str(n)})
        for n in (0, 1)
    ]
    finish(*nodes)
    assert [r["node_rank"] for r in results(tmp_path, 2)] == [0, 1]


def test_slurm_tasks_get_their_global_ranks(tmp_path: Path) -> None:
    slurm = {
        "SLURM_NTASKS": "2",
        "SLURM_NTASKS_PER_NODE": "2",
        "SLURM_NNODES": "1",
        "SLURM_NODEID": "0",
        "SLURM_JOB_ID": "4242",
        "SLURM_JOB_NAME": "train",
        "SLURM_NODELIST": "localhost",
        "MASTER_PORT": str(find_free_network_port()),
    }
    tasks = [
        run(
            "train",
            "ddp_find_unused_parameters_false",
            "2",
            "1",
            str(tmp_path),
            env={**slurm, "SLURM_PROCID": str(r), "SLURM_LOCALID": str(r)},
        )
        for r in (0, 1)
    ]
    finish(*tasks)
    assert [r["local_rank"] for r in results(tmp_path, 2)] == [0, 1]


def test_ctrl_c_stops_every_rank(tmp_path: Path) -> None:
    parent = run("sleep", "ddp_fork", "2", "1", str(tmp_path))
    deadline = time.monotonic() + 60
    while len(list(tmp_path.glob("worker-*"))) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    workers = [int(p.name.split("-")[1]) for p in tmp_path.glob("worker-*")]
    assert len(workers) == 2
    parent.send_signal(signal.SIGINT)
    assert parent.wait(timeout=15) != 0
    for pid in workers:
        assert not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text().lower()
