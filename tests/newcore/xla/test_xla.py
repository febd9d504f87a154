"""XLA strategies and the XLA launcher.

The ``xla`` tier runs tests/newcore/xla/xla_train.py with the XLA venv's python (tools/xla-venv.sh):
real training on the XLA CPU device, in this process and through a one-process spawn. torch-xla
cannot start several processes on the CPU, so the 8-core launch is checked by its arguments to
``xmp.spawn``, in this venv and without torch-xla; the rest needs neither.
"""

from __future__ import annotations

import importlib.util
import json
import os
import pickle
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import torch

from newcore import MissingBackendError
from newcore.accelerators import TPUAccelerator
from newcore.launchers import _XLASpawnLauncher, xla_spawn
from newcore.launchers.launcher import WorkerFailedError
from newcore.plugins.environments import LightningEnvironment
from newcore.plugins.io import TorchCheckpointIO, XLACheckpointIO
from newcore.strategies import SingleTPUStrategy, StrategyRegistry, TPUSpawnStrategy
from tests.newcore.xla import xla_train

ROOT = Path(__file__).resolve().parents[3]
XLA1 = [torch.device("xla", 0)]
XLA8 = [torch.device("xla", i) for i in range(8)]


def _xla_python() -> Path:
    """The XLA venv's interpreter; skip (or fail, where CI requires the tier) when it is not there."""
    cache = Path(os.environ.get("LIGHTNING_MIGRATE_CACHE", Path.home() / ".cache" / "lightning-migrate"))
    python = Path(os.environ.get("LIGHTNING_MIGRATE_XLA_PYTHON", cache / "xla-venv-torch2.9.0" / "bin" / "python"))
    if not python.exists():
        reason = (
            f"no torch-xla venv at {python}; create it with tools/xla-venv.sh (or set LIGHTNING_MIGRATE_XLA_PYTHON)"
        )
        if "xla" in os.environ.get("LIGHTNING_MIGRATE_REQUIRE_TIERS", "").split(","):
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
    return python


def _reference() -> tuple[list[float], list[float]]:
    """The same training on torch's CPU: what the XLA CPU device must reproduce (losses, final weights)."""
    model = xla_train.make_model()
    optimizer = torch.optim.SGD(model.parameters(), lr=xla_train.LR)
    x, y = xla_train.batch()
    losses = []
    for _ in range(xla_train.STEPS):
        optimizer.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses, xla_train.weights(model)


@pytest.mark.xla
@pytest.mark.timeout(300)
def test_single_core_and_one_process_spawn_train_on_the_xla_cpu_device(tmp_path: Path) -> None:
    python = _xla_python()
    env = {**os.environ, "PJRT_DEVICE": "CPU", "PYTHONPATH": str(ROOT)}
    env.pop("PT_XLA_DEBUG", None)
    start = time.monotonic()
    script = Path(xla_train.__file__)
    done = subprocess.run(
        [str(python), str(script), str(tmp_path)], env=env, capture_output=True, text=True, timeout=280
    )
    print(f"xla_train.py took {time.monotonic() - start:.1f} s")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-6000:]
    report = json.loads((tmp_path / "report.json").read_text())
    print(f"torch {report['torch']}, torch_xla {report['torch_xla']}")

    losses, final = _reference()
    for name in ("single", "spawn"):
        run = report[name]
        assert run["root_device"] == "xla:0" and run["param_device"] == "xla:0", name
        assert run["ranks"] == [0, 0, 1], name
        assert run["losses"] == pytest.approx(losses, rel=1e-4), name
        assert run["final"] == pytest.approx(final, abs=1e-5), name
        assert run["loaded"] == run["final"] and run["loaded_devices"] == ["cpu"], f"{name}: XLACheckpointIO round-trip"
        assert (run["sum"], run["mean"], run["gather"]) == ([2.0], [2.0], [[1.0, 2.0]]), name
        assert run["broadcast"] == {"a": [1, 2]} and run["decision"] is True, name
        assert run["debug_during"] == "1", f"{name}: debug=True exports PT_XLA_DEBUG while training"
        assert run["debug_after_teardown"] is None, f"{name}: the TPU accelerator's teardown removes PT_XLA_DEBUG"
        assert run["param_device_after_teardown"] == "cpu", name
        assert [round(v, 6) for v in run["weight"][0]] == [round(v, 6) for v in run["final"][:4]], name
    assert report["spawn"]["launcher"] == "_XLASpawnLauncher"
    assert report["spawn"]["weight_device"] == "cpu", "the launcher moves rank 0's XLA tensors to the CPU"
    assert report["spawn"]["debug_in_parent_after_launch"] is None


def _tpu_spawn(devices: list[torch.device]) -> TPUSpawnStrategy:
    strategy = StrategyRegistry.get("tpu_spawn", parallel_devices=devices, accelerator=TPUAccelerator())
    assert isinstance(strategy, TPUSpawnStrategy)
    strategy.cluster_environment = LightningEnvironment()
    strategy.set_world_ranks()
    strategy._configure_launcher()
    return strategy


def _train(factor: int, *, offset: int) -> int:
    return factor + offset


@pytest.mark.parametrize(
    ("devices", "nprocs", "channel"),
    [
        pytest.param(XLA8, None, "queue", id="8 cores: nprocs=None (every local device), results through a queue"),
        pytest.param(XLA1, 1, "list", id="1 core: nprocs=1 runs in this process"),
    ],
)
def test_spawn_arguments(
    monkeypatch: pytest.MonkeyPatch, devices: list[torch.device], nprocs: int | None, channel: str
) -> None:
    calls: list[dict[str, Any]] = []

    def spawn(fn: Any, args: tuple[Any, ...] = (), nprocs: Any = None, start_method: str = "spawn") -> None:
        """Stands in for xmp.spawn: records its arguments and plays local rank 0's report."""
        calls.append({"fn": fn, "args": args, "nprocs": nprocs, "start_method": start_method})
        if nprocs is None:
            pickle.dumps((fn, args))  # torch-xla's process pool pickles both, even when forking
        results = args[-1]
        results.append("rank 0 result") if isinstance(results, list) else results.put("rank 0 result")

    monkeypatch.setattr(xla_spawn, "_xla_spawn", lambda what: spawn)
    strategy = _tpu_spawn(devices)
    launcher = strategy.launcher
    assert isinstance(launcher, _XLASpawnLauncher)
    assert launcher.launch(_train, 2, offset=3) == "rank 0 result"
    (call,) = calls
    assert call["fn"] == launcher._wrapping_function
    assert call["args"][:3] == (_train, (2,), {"offset": 3})
    assert (call["nprocs"], call["start_method"]) == (nprocs, "fork")
    assert isinstance(call["args"][3], list) is (channel == "list")
    assert "torch_xla" not in sys.modules


def test_spawn_without_a_report_from_rank_zero_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(xla_spawn, "_xla_spawn", lambda what: lambda fn, **kwargs: None)
    launcher = _tpu_spawn(XLA8).launcher
    assert launcher is not None
    with pytest.raises(WorkerFailedError, match="local rank 0 reported no result"):
        launcher.launch(_train, 1, offset=1)


@pytest.mark.skipif(importlib.util.find_spec("torch_xla") is not None, reason="needs a venv without torch-xla")
def test_launch_without_torch_xla_names_the_strategy_and_the_extra() -> None:
    launcher = _tpu_spawn(XLA8).launcher
    assert launcher is not None
    with pytest.raises(MissingBackendError, match=r"strategy='tpu_spawn' requires the `torch_xla` package"):
        launcher.launch(_train, 1, offset=1)


@pytest.mark.parametrize("name", ["single_tpu", "tpu_spawn", "tpu_spawn_debug"])
def test_tpu_strategies_checkpoint_through_xla_unless_told_otherwise(name: str) -> None:
    assert type(StrategyRegistry.get(name).checkpoint_io) is XLACheckpointIO
    mine = TorchCheckpointIO()
    assert StrategyRegistry.get(name, checkpoint_io=mine).checkpoint_io is mine


def test_debug_is_exported_at_setup_and_removed_by_the_accelerator_at_teardown() -> None:
    # The launcher never ran: the strategy is in the parent, where no XLA runtime is needed.
    strategy = _tpu_spawn(XLA8)
    strategy.debug = True
    assert "PT_XLA_DEBUG" not in os.environ
    strategy.setup_environment()
    assert os.environ["PT_XLA_DEBUG"] == "1"
    strategy.teardown()
    assert "PT_XLA_DEBUG" not in os.environ
    strategy.teardown()  # idempotent


def test_outside_the_workers_the_collectives_are_single_process() -> None:
    strategy = _tpu_spawn(XLA8)
    tensor = torch.tensor([1.0, 3.0])
    assert strategy.broadcast({"a": 1}) == {"a": 1}
    assert torch.equal(strategy.all_gather(tensor), tensor.unsqueeze(0))
    assert torch.equal(strategy.all_reduce(tensor, "mean"), tensor)
    assert strategy.reduce_boolean_decision(False) is False
    strategy.barrier()
    assert strategy.root_device == torch.device("xla", 0)
    assert "torch_xla" not in sys.modules


def test_single_tpu_debug_flag_is_kept_and_shown() -> None:
    strategy = SingleTPUStrategy(3, debug=True)
    assert strategy.root_device == torch.device("xla", 3)
    assert repr(strategy) == "SingleTPUStrategy(device=device(type='xla', index=3), debug=True)"
