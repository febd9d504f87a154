"""The precision applies in the forward of the module ``Runner.setup`` returns, without ``runner.autocast()``.

bfloat16 on CPU starts oneDNN's OpenMP threads, after which a forked process can hang (later ``ddp_fork``
tests did): the single-device checks run in one spawned process, not in pytest's.
"""

from __future__ import annotations

import copy
import io
import multiprocessing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import torch
from torch.nn.parallel import DistributedDataParallel

from newcore import Runner

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]  # every test here starts processes


class Net(torch.nn.Module):
    """Records the dtype its first layer computed in, as the precision reached it inside the forward."""

    def __init__(self) -> None:
        super().__init__()
        torch.manual_seed(0)
        self.layer = torch.nn.Linear(4, 3)
        self.seen: list[torch.dtype] = []

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        hidden = self.layer(x)
        self.seen.append(hidden.dtype)
        return hidden.relu()


def _forward(runner: Runner) -> dict[str, Any]:
    net = Net()
    model = runner.setup(net)
    output = model(torch.randn(2, 4))  # no `with runner.autocast()`
    runner.backward(output.sum())
    grad = net.layer.weight.grad
    after_setup, grad_dtype = net.seen[-1], None if grad is None else grad.dtype
    with runner.autocast():  # still there for code outside the module
        outside = torch.nn.functional.linear(torch.randn(1, 4), torch.randn(3, 4)).dtype
    runner.teardown()
    net.float()(torch.randn(2, 4))  # after teardown the user's module computes as before setup (no autocast)
    return {
        "inside": after_setup,
        "output": output.dtype,
        "grad": grad_dtype,
        "outside": outside,
        "after_teardown": net.seen[-1],
    }


def _in_fresh_process(fn: Callable[[], Any]) -> Any:
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        return pool.apply(fn)


def _every_precision() -> dict[str, dict[str, Any]]:
    return {precision: Runner(accelerator="cpu", precision=precision).launch(_forward) for precision in PRECISIONS}


PRECISIONS = ("bf16", "32", "64")


@pytest.fixture(scope="module")
def forwards() -> dict[str, dict[str, Any]]:
    return dict(_in_fresh_process(_every_precision))


@pytest.mark.parametrize(
    ("precision", "inside", "outside"),
    [
        pytest.param("bf16", torch.bfloat16, torch.bfloat16, id="bf16: forward under autocast, output float32"),
        pytest.param("32", torch.float32, torch.float32, id="32: unchanged"),
        pytest.param("64", torch.float64, torch.float64, id="64: float32 input cast to the float64 weights"),
    ],
)
def test_the_set_up_module_computes_in_the_training_precision(
    precision: str, inside: torch.dtype, outside: torch.dtype, forwards: dict[str, dict[str, Any]]
) -> None:
    result = forwards[precision]
    # The output comes back in the default dtype (float32), as Fabric's does, so the loss after it is full precision.
    assert result == {
        "inside": inside,
        "output": torch.float32,
        "grad": torch.float64 if precision == "64" else torch.float32,
        "outside": outside,
        "after_teardown": torch.float32,
    }


def _same_module(runner: Runner) -> None:
    net = Net()
    model = runner.setup(net)
    assert model is net and type(model) is Net
    assert set(model.state_dict()) == {"layer.weight", "layer.bias"}
    buffer = io.BytesIO()
    torch.save(model, buffer)  # the installed forward pickles (a plain object, not a closure)
    buffer.seek(0)
    for twin in (torch.load(buffer, weights_only=False), copy.deepcopy(model)):
        twin(torch.randn(1, 4))
        assert twin.seen[-1] == torch.bfloat16 and twin is not model
    assert runner.setup(model) is model  # set up twice: precision applied once
    model(torch.randn(1, 4))
    assert model.seen[-1] == torch.bfloat16


def _same_module_bf16() -> None:
    Runner(accelerator="cpu", precision="bf16").launch(_same_module)


def test_the_set_up_module_is_still_the_strategys_module() -> None:
    _in_fresh_process(_same_module_bf16)


def _ddp(runner: Runner, checkpoint: str) -> dict[str, Any]:
    net = Net()
    model, optimizer = runner.setup(net, torch.optim.SGD(net.parameters(), lr=0.1))
    output = model(torch.randn(2, 4))
    runner.backward(output.sum())
    optimizer.step()
    runner.save(checkpoint, {"model": model})
    runner.load(checkpoint, {"model": model})
    return {"wrapper": type(model).__name__, "inside": net.seen[-1], "output": output.dtype}


def test_ddp_stays_inside_the_precision_and_checkpoints_keep_their_keys(tmp_path: Path) -> None:
    checkpoint = tmp_path / "ckpt.pt"
    runner = Runner(accelerator="cpu", strategy="ddp_spawn", devices=2, precision="bf16")
    result = runner.launch(_ddp, str(checkpoint))
    assert result == {"wrapper": DistributedDataParallel.__name__, "inside": torch.bfloat16, "output": torch.float32}
    assert set(torch.load(checkpoint, weights_only=False)["model"]) == {"layer.weight", "layer.bias"}
