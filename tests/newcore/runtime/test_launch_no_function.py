"""``Runner.launch()`` without a function under ``ddp`` started as ``python script.py`` (Fabric's style).

Real processes over Gloo: rank 0 re-runs the script for rank 1, both train after ``launch()`` returns,
and the end of the launch (``teardown``, ``with runner:``, or the end of the script) waits for rank 1 or,
when it failed, names it; no rank is left running.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import torch

from tests.newcore.runtime import _workers
from tests.newcore.runtime.test_script import BASE_ENV

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]

SCRIPT = str(Path(__file__).with_name("_fabric_style.py"))


def run(mode: str, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, SCRIPT, mode, str(out)], env=BASE_ENV, capture_output=True, text=True, timeout=90
    )


def left_running(out: Path) -> list[int]:
    pids = [int(p.name.rsplit("-", 1)[1]) for p in out.glob("pid-*")]
    assert len(pids) == 2, sorted(p.name for p in out.iterdir())
    alive = []
    for pid in pids:
        status = Path(f"/proc/{pid}/status")
        if status.exists() and "zombie" not in status.read_text().lower():
            alive.append(pid)
    return alive


@pytest.mark.parametrize(
    "mode",
    [
        pytest.param("with", id="with runner: ends the launch"),
        pytest.param("teardown", id="runner.teardown() ends the launch"),
        pytest.param("no-teardown", id="the end of the script ends the launch"),
    ],
)
def test_every_rank_trains_after_launch_returns(mode: str, tmp_path: Path) -> None:
    done = run(mode, tmp_path)
    assert done.returncode == 0, done.stderr
    expected = _workers.reference()
    for rank in (0, 1):
        result = torch.load(tmp_path / f"rank{rank}.pt", weights_only=False)
        assert (result["local_rank"], result["ranks"], result["sum"]) == (rank, [0, 1], 3.0)
        for name, value in expected.items():
            torch.testing.assert_close(result["state"][name], value, rtol=1e-5, atol=1e-6)
    assert left_running(tmp_path) == []


@pytest.mark.parametrize(
    "mode",
    [
        pytest.param("raise", id="rank 1 raises inside with runner:"),
        pytest.param("raise-uncaught", id="rank 1 raises and nothing catches it"),
    ],
)
def test_a_failed_rank_is_named_and_rank_zero_stops(mode: str, tmp_path: Path) -> None:
    done = run(mode, tmp_path)
    assert done.returncode == 1, done.stderr
    assert "WorkerFailedError: Local rank 1 failed with ValueError: rank 1 failed on purpose" in done.stderr
    assert left_running(tmp_path) == []
