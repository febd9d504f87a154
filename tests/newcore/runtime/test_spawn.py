"""ddp_spawn / ddp_fork through the Runner: real worker processes talking over Gloo on CPU."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
import torch

from newcore import Runner
from tests.newcore.runtime import _workers

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]


@pytest.mark.parametrize(
    "strategy",
    [
        pytest.param(
            "ddp_spawn_find_unused_parameters_false", id="ddp_spawn (deterministic carried into spawned workers)"
        ),
        pytest.param("ddp_fork_find_unused_parameters_false", id="ddp_fork"),
        pytest.param(
            "ddp_sharded_spawn_find_unused_parameters_false", id="ddp_sharded_spawn (ZeroRedundancyOptimizer)"
        ),
    ],
)
def test_two_workers_train_like_one_process(strategy: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CUBLAS_WORKSPACE_CONFIG", ":4096:8")  # deterministic=True sets it in this process too
    try:
        result = Runner(accelerator="cpu", strategy=strategy, devices=2, deterministic=True).launch(_workers.train)
    finally:
        torch.use_deterministic_algorithms(False)
    expected = _workers.reference()
    assert result["ranks"] == [0, 1]
    assert result["deterministic"] is True
    for name, value in expected.items():
        torch.testing.assert_close(result["state"][name], value, rtol=1e-5, atol=1e-6)


def test_collectives_and_checkpoint_in_one_launch(tmp_path: Path) -> None:
    runner = Runner(accelerator="cpu", strategy="ddp_fork", devices=2)
    result = runner.launch(_workers.collectives, str(tmp_path / "ckpt.pt"))
    assert result == {"world_size": 2, "is_global_zero": True, "gathered": [[0, 0], [1, 10]]}
    saved = torch.load(tmp_path / "ckpt.pt", weights_only=False)
    assert set(saved) == {"model", "optimizer", "step"} and set(saved["model"]) == set(_workers.model().state_dict())


def test_teardown_unwraps_and_leaves_nothing_behind() -> None:
    # SyncBatchNorm needs CUDA (DDP refuses it on CPU), so its revert is checked by tools/gpu_check.sh.
    _workers.CountingCPU.teardowns = 0
    runner = Runner(accelerator=_workers.CountingCPU(), strategy="ddp_fork", devices=2)
    assert runner.launch(_workers.teardown_state) == {
        "wrapped": ("DistributedDataParallel", "BatchNorm1d"),
        "after": "BatchNorm1d",
        "device": "cpu",
        "process_group": False,
        "env_changed": [],
        "new_threads": [],
        "accelerator_teardowns": 1,
    }


def test_forked_workers_run_parallel_ops_after_the_parent_did() -> None:
    """OpenMP's pool does not survive fork: without one intra-op thread per forked worker this hangs forever."""
    (torch.ones(_workers.PARALLEL_ELEMENTS) * 2).sum()  # the parent runs a parallel region first
    result = Runner(accelerator="cpu", strategy="ddp_fork", devices=2).launch(_workers.parallel_op)
    assert result == {"sum": 2.0 * _workers.PARALLEL_ELEMENTS, "threads": 1}


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return Path(f"/proc/{pid}/status").exists() and "zombie" in Path(f"/proc/{pid}/status").read_text()


def test_a_failing_rank_fails_the_launch_promptly_and_survivors_tear_down(tmp_path: Path) -> None:
    runner = Runner(accelerator="cpu", strategy="ddp_fork", devices=2, plugins=[_workers.MarkerIO(str(tmp_path))])
    start = time.monotonic()
    with pytest.raises(ValueError, match="rank 1 failed on purpose") as raised:
        runner.launch(_workers.fail_on_rank_one, str(tmp_path))
    assert time.monotonic() - start < 30
    assert "Local rank 1 failed" in str(raised.value.__cause__)
    workers = [int(p.name.split("-")[1]) for p in tmp_path.glob("worker-*")]
    assert len(workers) == 2 and all(_gone(pid) for pid in workers)
    # Both workers tore down: rank 1 after its error, rank 0 when SIGTERM unwound its sleep.
    assert {p.name.split("-")[1] for p in tmp_path.glob("teardown-*")} == {str(pid) for pid in workers}


def test_no_wrapper_outlives_the_process_group(tmp_path: Path) -> None:
    """A DDP wrapper freed after the group would free the group under the GIL, which can deadlock with Gloo."""
    Runner(accelerator="cpu", strategy="ddp_fork", devices=2).launch(
        _workers.note_wrappers_at_group_destroy, str(tmp_path)
    )
    assert {path.name: path.read_text() for path in tmp_path.iterdir()} == {"rank0": "0", "rank1": "0"}
