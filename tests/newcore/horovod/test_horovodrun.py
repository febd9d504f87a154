"""A real ``horovodrun -np 2 --gloo`` job training through ``Runner(strategy="horovod")`` (tier: ``-m horovod``).

Needs Horovod built with PyTorch and Gloo in the interpreter running pytest (tools/install-horovod.sh).
Without it the test is skipped, unless ``LIGHTNING_MIGRATE_REQUIRE_TIERS`` names ``horovod`` (CI's tier
step sets it), where a missing build must fail rather than pass silently.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch

from tests.newcore.horovod import hvd_train

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = Path(hvd_train.__file__)

pytestmark = pytest.mark.horovod


def _require_horovod() -> Path:
    """``horovodrun`` next to this interpreter; skip (or fail, where the tier is required) without Horovod."""
    # find_spec, not import: other tests check that nothing in this process imported horovod.
    if importlib.util.find_spec("horovod") is None:
        reason = f"horovod is not importable by {sys.executable}; build it with tools/install-horovod.sh"
        if "horovod" in os.environ.get("LIGHTNING_MIGRATE_REQUIRE_TIERS", "").split(","):
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
    horovodrun = Path(sys.executable).parent / "horovodrun"
    assert horovodrun.exists(), f"horovod is installed but {horovodrun} is missing: a broken install"
    return horovodrun


def _reference_weights() -> list[float]:
    """One process over both ranks' data: what two ranks averaging gradients must reproduce.

    Rank 0's initial weights (broadcast to all), Horovod's learning rate scaled by the world size
    (Lightning 1.6's behaviour), and the full batch: the mean of two equal shards' MSE gradients is
    the full batch's.
    """
    torch.manual_seed(hvd_train.INIT_SEED)
    model = hvd_train.make_model()
    optimizer = torch.optim.SGD(model.parameters(), lr=hvd_train.LR * 2)
    shards = [hvd_train.shard(rank) for rank in (0, 1)]
    x, y = torch.cat([s[0] for s in shards]), torch.cat([s[1] for s in shards])
    for _ in range(hvd_train.STEPS):
        optimizer.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()
    return hvd_train.weights(model)


@pytest.mark.timeout(300)
def test_two_ranks_train_in_lockstep_under_horovodrun(tmp_path: Path) -> None:
    horovodrun = _require_horovod()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    command = [str(horovodrun), "-np", "2", "--gloo", "-H", "localhost:2", sys.executable, str(SCRIPT), str(tmp_path)]
    start = time.monotonic()
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=280)
    print(f"horovodrun -np 2 took {time.monotonic() - start:.1f} s")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]

    reports = [json.loads((tmp_path / f"rank{rank}.json").read_text()) for rank in (0, 1)]
    torch.manual_seed(hvd_train.INIT_SEED)
    rank0_init = hvd_train.weights(hvd_train.make_model())
    for rank, report in enumerate(reports):
        assert report["strategy"] == "HorovodStrategy"
        assert (report["rank"], report["local_rank"], report["world_size"]) == (rank, rank, 2)
        assert report["device"] == "cpu"
        assert report["initial"] == rank0_init, "parameters were not broadcast from rank 0"
        assert report["lr"] == pytest.approx(hvd_train.LR * 2)
        assert report["sum"] == [3.0] and report["mean"] == [1.5]
        assert report["gather"] == [[0, 0], [1, 10]]
        assert report["broadcast"] == {"from": 1}
        assert (report["all_true"], report["rank0_true"], report["any_rank0_true"]) == (True, False, True)
        assert report["sampler"] == {"num_replicas": 2, "rank": rank}
        assert report["loaded"] == report["final"] and report["loaded_step"] == hvd_train.STEPS
    assert reports[0]["final"] == reports[1]["final"], "ranks diverged: gradients were not all-reduced"
    assert reports[0]["final"] == pytest.approx(_reference_weights(), abs=1e-5)
    assert reports[0]["final"] != rank0_init
