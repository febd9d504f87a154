"""The Runner speaks Lightning Fabric 2.x: its collectives (names, signatures, defaults) and its helpers.

One process for the helpers and the single-process semantics; one 2-process ``ddp_spawn`` launch (Gloo)
for everything that needs peers.
"""

from __future__ import annotations

import contextlib
import inspect
import io
import multiprocessing
import os
from collections import namedtuple
from pathlib import Path
from typing import Any

import pytest
import torch
import torch.distributed as dist

from newcore import MisconfigurationException, Runner
from newcore.collectives import check_reduce_op
from newcore.plugins.precision import MixedPrecisionPlugin
from newcore.strategies import DDPSpawnStrategy, DDPStrategy, SingleDeviceStrategy
from tests.newcore.runtime import _workers

Pair = namedtuple("Pair", ["left", "right"])


# -- the 2.x names and signatures -------------------------------------------------------------------


def test_signatures_and_defaults_are_fabrics() -> None:
    expected = {
        "all_reduce": "(data, group=None, reduce_op='mean')",
        "all_gather": "(data, group=None, sync_grads=False)",
        "rank_zero_first": "(local=False)",
        "no_backward_sync": "(module, enabled=True)",
        "clip_gradients": "(module, optimizer, clip_val=None, max_norm=None, norm_type=2.0, error_if_nonfinite=True)",
        "seed_everything": "(seed=None, workers=None, verbose=True)",
        "init_module": "(empty_init=None)",
        "load_raw": "(path, obj, strict=True)",
        "setup_module": "(module, move_to_device=True)",
        "backward": "(loss, *args, model=None, **kwargs)",
        "print": "(*args, **kwargs)",
    }
    actual = {}
    for name in expected:
        parameters = inspect.signature(getattr(Runner, name)).parameters.values()
        shown = [str(p.replace(annotation=inspect.Parameter.empty)) for p in parameters if p.name != "self"]
        actual[name] = f"({', '.join(shown)})"
    assert actual == expected
    assert isinstance(inspect.getattr_static(Runner, "seed_everything"), staticmethod)


@pytest.mark.parametrize(
    ("flags", "kind", "extra"),
    [
        pytest.param({"strategy": "auto"}, SingleDeviceStrategy, {}, id="strategy='auto' is the 1.6 default choice"),
        pytest.param({"devices": "auto"}, SingleDeviceStrategy, {}, id="devices='auto' alone means accelerator='auto'"),
        pytest.param(
            {"accelerator": "auto", "strategy": "auto", "devices": "auto"}, SingleDeviceStrategy, {}, id="Fabric()"
        ),
        pytest.param(
            {"accelerator": "cpu", "strategy": "ddp_spawn_find_unused_parameters_true", "devices": 2},
            DDPSpawnStrategy,
            {"find_unused_parameters": True},
            id="2.x name ddp_spawn_find_unused_parameters_true",
        ),
        pytest.param(
            {"accelerator": "cpu", "strategy": "ddp_find_unused_parameters_true", "devices": 2},
            DDPStrategy,
            {"find_unused_parameters": True},
            id="2.x name ddp_find_unused_parameters_true",
        ),
    ],
)
def test_fabric_spellings_of_the_flags(flags: dict[str, Any], kind: type, extra: dict[str, Any]) -> None:
    strategy = Runner(**flags).strategy
    assert type(strategy) is kind
    assert {key: getattr(strategy, key) for key in extra} == extra


# -- collectives on one process --------------------------------------------------------------------


@pytest.mark.parametrize("reduce_op", ["mean", "sum", "max", "min", "AVG", dist.ReduceOp.MAX])
def test_one_process_reduces_to_the_value_itself(reduce_op: Any) -> None:
    with Runner() as runner:
        tensor = torch.tensor([1.0, 4.0])
        result = runner.all_reduce({"t": tensor, "n": [3, 2.5], "pair": Pair(1, torch.tensor(2))}, reduce_op=reduce_op)
        assert result["t"] is tensor and tensor.tolist() == [1.0, 4.0]  # in place, as Fabric
        assert [type(v) for v in result["n"]] == [torch.Tensor, torch.Tensor]
        assert [v.item() for v in result["n"]] == [3, 2.5]
        assert isinstance(result["pair"], Pair) and result["pair"].left.item() == 1


@pytest.mark.parametrize("reduce_op", ["prod", "average", None, 3])
def test_an_unknown_reduce_op_fails_on_one_process_too(reduce_op: Any) -> None:
    with Runner() as runner, pytest.raises(MisconfigurationException, match="'sum', 'mean', 'max', 'min'"):
        runner.all_reduce(torch.ones(1), reduce_op=reduce_op)


def test_a_strategy_that_cannot_take_max_names_what_it_can() -> None:
    assert check_reduce_op("SUM", ("sum", "mean"), "strategy='horovod'") == "sum"
    with pytest.raises(MisconfigurationException, match=r"by `strategy='horovod'`; pass one of 'sum', 'mean'"):
        check_reduce_op("max", ("sum", "mean"), "strategy='horovod'")


def test_one_process_gathers_without_a_new_dimension() -> None:
    with Runner() as runner:
        gathered = runner.all_gather({"t": torch.ones(2, 3), "n": 4})
    assert gathered["t"].shape == (2, 3) and gathered["n"].item() == 4


def test_collectives_of_a_spawn_strategy_need_the_launch() -> None:
    runner = Runner(accelerator="cpu", strategy="ddp_spawn", devices=2)
    for call in (lambda: runner.all_reduce(1.0), lambda: runner.all_gather(1.0)):
        with pytest.raises(MisconfigurationException, match="inside the function given to"):
            call()


# -- helpers on one process -----------------------------------------------------------------------


def test_print_and_rank_zero_first_on_one_process(capsys: pytest.CaptureFixture[str]) -> None:
    with Runner() as runner:
        runner.print("hello", 1, sep="-")
        with runner.rank_zero_first():
            print("inside")
    assert capsys.readouterr().out == "hello-1\ninside\n"


def test_seed_everything_is_fabrics(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("PL_GLOBAL_SEED", "PL_SEED_WORKERS"):  # set first, so that monkeypatch restores them after
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    assert Runner.seed_everything(7) == 7
    first = torch.rand(3)
    assert (os.environ["PL_GLOBAL_SEED"], os.environ["PL_SEED_WORKERS"]) == ("7", "1")
    assert Runner.seed_everything() == 7  # seed=None reads PL_GLOBAL_SEED
    assert torch.equal(torch.rand(3), first)
    Runner.seed_everything(1, workers=False)
    assert os.environ["PL_SEED_WORKERS"] == "0"
    with pytest.raises(MisconfigurationException, match="out of bounds"):
        Runner.seed_everything(-1)


def test_init_module_places_dtypes_and_can_skip_init() -> None:
    with Runner(precision=64) as runner, runner.init_module():
        net = torch.nn.Linear(2, 2)
    assert net.weight.dtype == torch.float64 and torch.get_default_dtype() == torch.float32
    torch.manual_seed(0)
    expected = torch.rand(1)
    torch.manual_seed(0)
    with Runner() as runner, runner.init_module(empty_init=True):
        torch.nn.Linear(64, 64)
    assert torch.equal(torch.rand(1), expected)  # no init function drew from the generator


def test_backward_passes_arguments_to_loss_backward() -> None:
    with Runner() as runner:
        net = runner.setup_module(torch.nn.Linear(2, 1))
        loss = net(torch.ones(1, 2)).sum()
        runner.backward(loss, retain_graph=True)
        runner.backward(loss, inputs=[net.bias])  # a second pass needs the graph kept
        assert net.bias.grad is not None and net.bias.grad.item() == 2.0 and net.weight.grad.tolist() == [[1.0, 1.0]]
        with pytest.raises(MisconfigurationException, match="move_to_device=False"):
            runner.setup_module(torch.nn.Linear(1, 1), move_to_device=False)


def _model_with_gradients(runner: Runner, scale: float = 1.0) -> tuple[Any, Any]:
    module = _workers.model()
    net, optimizer = runner.setup(module, torch.optim.SGD(module.parameters(), lr=0.1))
    x, y = _workers.batch()
    runner.backward(torch.nn.functional.mse_loss(net(x), y) * scale)
    return net, optimizer


def test_clip_gradients_by_value_and_by_norm() -> None:
    with Runner() as runner:
        net, optimizer = _model_with_gradients(runner)
        norm = runner.clip_gradients(net, optimizer, max_norm=1e-3)
        assert norm is not None and norm.item() > 1e-3
        assert torch.linalg.vector_norm(torch.stack([p.grad.norm() for p in net.parameters()])).item() <= 1.001e-3
        assert runner.clip_gradients(net, optimizer, clip_val=1e-5) is None
        assert max(p.grad.abs().max().item() for p in net.parameters()) <= 1e-5
        for bad in ({}, {"clip_val": 1.0, "max_norm": 1.0}):
            with pytest.raises(MisconfigurationException, match="exactly one of"):
                runner.clip_gradients(net, optimizer, **bad)
        next(net.parameters()).grad[0] = float("inf")
        with pytest.raises(RuntimeError, match="non-finite"):
            runner.clip_gradients(net, optimizer, max_norm=1.0)


def _float16_and_true_norms() -> tuple[Any, Any]:
    with Runner() as runner:
        net, optimizer = _model_with_gradients(runner)
        true_norm = runner.clip_gradients(net, optimizer, max_norm=1e9)
    plugin = MixedPrecisionPlugin(16, "cpu", scaler=torch.amp.GradScaler("cpu", init_scale=1024.0))
    with Runner(plugins=[plugin]) as runner:
        net, optimizer = _model_with_gradients(runner)
        assert next(net.parameters()).grad is not None
        norm = runner.clip_gradients(net, optimizer, max_norm=1e9)
        optimizer.step()  # the scaler knows the gradients are unscaled already
    return norm, true_norm


def test_clip_gradients_unscales_float16_gradients_first() -> None:
    # In a spawned process: the float16 forward starts OpenMP threads, after which forked workers of later
    # ddp_fork tests hang (libgomp is not fork-safe).
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        norm, true_norm = pool.apply(_float16_and_true_norms)
    assert norm is not None and true_norm is not None
    torch.testing.assert_close(norm, true_norm, rtol=1e-2, atol=0)  # scaled, it would be 1024 times larger


def test_load_raw_loads_a_plain_state_dict(tmp_path: Path) -> None:
    source = _workers.model()
    torch.save(source.state_dict(), tmp_path / "raw.pt")
    torch.save({**source.state_dict(), "extra": torch.ones(1)}, tmp_path / "extra.pt")
    with Runner() as runner:
        target = runner.setup(torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 2)))
        runner.load_raw(tmp_path / "raw.pt", target)
        assert all(
            torch.equal(a, b) for a, b in zip(target.state_dict().values(), source.state_dict().values(), strict=True)
        )
        runner.load_raw(tmp_path / "extra.pt", target, strict=False)
        with pytest.raises((RuntimeError, MisconfigurationException), match="extra"):
            runner.load_raw(tmp_path / "extra.pt", target)


def test_no_backward_sync_needs_a_set_up_module_and_is_a_no_op_on_one_process() -> None:
    with Runner() as runner:
        net = runner.setup(torch.nn.Linear(1, 1))
        with runner.no_backward_sync(net):
            pass
        with pytest.raises(MisconfigurationException, match=r"the module `Runner\.setup` returned"):
            runner.no_backward_sync(torch.nn.Linear(1, 1))


@pytest.mark.parametrize(
    ("flags", "match"),
    [
        pytest.param({"strategy": "ddp_spawn"}, "multiprocessing", id="ddp_spawn needs a function"),
        pytest.param({"strategy": "ddp_fork"}, "multiprocessing", id="ddp_fork needs a function"),
    ],
)
def test_launch_without_a_function_where_the_launcher_must_start_processes(flags: dict[str, Any], match: str) -> None:
    with pytest.raises(MisconfigurationException, match=match):
        Runner(accelerator="cpu", devices=2, **flags).launch()


def test_launch_without_a_function_sets_up_this_process() -> None:
    runner = Runner()
    assert runner.launch() is None
    assert runner.all_reduce(2.0, reduce_op="sum").item() == 2.0
    runner.teardown()


# -- two processes over Gloo ----------------------------------------------------------------------


def collectives_2x(runner: Runner, marker: str) -> dict[str, Any]:
    """Every Fabric collective and helper with a peer; asserts in the worker, returns what rank 0 saw."""
    rank = runner.global_rank
    tensor = torch.tensor([rank + 1.0])
    assert runner.all_reduce(tensor) is tensor and tensor.item() == 1.5  # default mean, in place
    reduced = runner.all_reduce({"n": rank, "l": [torch.tensor([rank, -rank])]}, reduce_op="sum")
    assert reduced["n"].item() == 1 and reduced["l"][0].tolist() == [1, -1]
    assert runner.all_reduce(rank, reduce_op="mean").item() == 0.5  # a number's mean is not truncated
    assert runner.all_reduce(torch.tensor([rank, -rank]), reduce_op="max").tolist() == [1, 0]
    assert runner.all_reduce(torch.tensor([rank, -rank]), reduce_op=dist.ReduceOp.MIN).tolist() == [0, -1]
    group = dist.new_group([0, 1])
    assert runner.all_reduce(torch.tensor(1.0), group=group, reduce_op="sum").item() == 2.0
    gathered = runner.all_gather({"n": rank, "t": torch.tensor([rank, 10 * rank])}, group=group)
    assert gathered["n"].tolist() == [0, 1] and gathered["t"].tolist() == [[0, 0], [1, 10]]
    # sync_grads: every rank's loss reaches every rank's input (2 ranks x d(2x)/dx).
    x = torch.tensor(rank + 1.0, requires_grad=True)
    runner.all_gather(x * 2, sync_grads=True).sum().backward()
    assert x.grad is not None and x.grad.item() == 4.0
    assert runner.all_gather(x * 2).requires_grad is False
    with runner.rank_zero_first():
        if rank == 0:
            Path(marker).write_text("rank 0 was first")
        assert Path(marker).read_text() == "rank 0 was first"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        runner.print("only local rank 0")
    assert out.getvalue() == ("only local rank 0\n" if rank == 0 else "")
    net = runner.setup(torch.nn.Linear(1, 1, bias=False))
    data = torch.tensor([[rank + 1.0]])
    with runner.no_backward_sync(net):
        runner.backward(net(data).sum())
    assert net.module.weight.grad is not None
    unsynced = runner.all_gather(net.module.weight.grad.clone()).flatten().tolist()
    net.module.weight.grad = None
    runner.backward(net(data).sum())
    synced = runner.all_gather(net.module.weight.grad.clone()).flatten().tolist()
    return {"unsynced": unsynced, "synced": synced}


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_two_processes_run_fabrics_collectives(tmp_path: Path) -> None:
    runner = Runner(accelerator="cpu", strategy="ddp_spawn", devices=2)
    result = runner.launch(collectives_2x, str(tmp_path / "first.txt"))
    assert result == {"unsynced": [1.0, 2.0], "synced": [1.5, 1.5]}
