"""GPU checks for newcore's runtime: one line per check (``PASS``/``FAIL``/``SKIP``), exit 1 if any failed.

Run by ``tools/gpu_check.sh`` on a machine with CUDA GPUs.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import torch

from newcore import Runner

RESULTS: list[bool] = []


def check(name: str, body: Callable[[], str]) -> None:
    try:
        detail = body()
        print(f"PASS {name}: {detail}", flush=True)
        RESULTS.append(True)
    except Exception as error:
        print(f"FAIL {name}: {type(error).__name__}: {error}", flush=True)
        traceback.print_exc(file=sys.stderr)
        RESULTS.append(False)


def _train(runner: Runner) -> dict[str, object]:
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(32, 32), torch.nn.BatchNorm1d(32), torch.nn.Linear(32, 4))
    model, optimizer = runner.setup(net, torch.optim.SGD(net.parameters(), lr=0.1))
    kinds = sorted({type(m).__name__ for m in runner.strategy.unwrap_module(model).modules()})
    for _ in range(5):
        with runner.autocast():
            loss = model(torch.randn(16, 32, device=runner.device)).float().pow(2).mean()
        runner.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
    total = runner.all_reduce(torch.ones(1, device=runner.device), reduce_op="sum").item()
    runner.teardown()
    return {"device": str(next(net.parameters()).device), "bn": type(net[1]).__name__, "kinds": kinds, "sum": total}


def single_device() -> str:
    result = Runner(accelerator="cuda", devices=1).launch(_train)
    assert result["device"] == "cpu", result  # moved back to the host at teardown
    return f"trained on cuda:0, model back on {result['device']}"


def mixed_precision() -> str:
    result = Runner(accelerator="cuda", devices=1, precision=16).launch(_train)
    return f"precision=16 (GradScaler) trained, model on {result['device']}"


def ddp_nccl() -> str:
    count = torch.cuda.device_count()
    if count < 2:
        return "SKIP-only one GPU"
    runner = Runner(accelerator="cuda", devices=count, strategy="ddp_spawn", sync_batchnorm=True)
    assert runner.strategy.process_group_backend == "nccl"  # type: ignore[attr-defined]
    result = runner.launch(_train)
    assert result["sum"] == count and "SyncBatchNorm" in result["kinds"] and result["bn"] != "SyncBatchNorm", result
    return f"NCCL all_reduce over {count} GPUs, SyncBatchNorm reverted to {result['bn']}"


def memory_back_to_baseline() -> str:
    torch.cuda.init()
    baseline = torch.cuda.memory_allocated()
    Runner(accelerator="cuda", devices=1).launch(_train)
    after, reserved = torch.cuda.memory_allocated(), torch.cuda.memory_reserved()
    assert after <= baseline, (baseline, after)
    assert reserved == 0, f"cache not emptied: {reserved} bytes reserved"
    return f"allocated {after} B (baseline {baseline} B), reserved {reserved} B after teardown"


if __name__ == "__main__":
    if not torch.cuda.is_available():
        print("SKIP all: no CUDA GPU on this machine")
        sys.exit(0)
    for name, body in [
        ("cuda single device", single_device),
        ("cuda mixed precision", mixed_precision),
        ("nccl ddp", ddp_nccl),
        ("cuda memory after teardown", memory_back_to_baseline),
    ]:
        check(name, body)
    sys.exit(0 if all(RESULTS) else 1)
