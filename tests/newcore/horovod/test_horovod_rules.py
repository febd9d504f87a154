"""HorovodStrategy's rules that need no Horovod: flags it refuses, ranks from the launcher, single-process fallbacks."""

from __future__ import annotations

import sys
from typing import Any

import pytest
import torch

from newcore import AcceleratorConnector, MisconfigurationException, MissingBackendError
from newcore.strategies import HorovodStrategy
from tests.conftest import Machine

CPU = [torch.device("cpu")]
CPU2 = [torch.device("cpu"), torch.device("cpu")]
HOROVOD = frozenset({"horovod"})


@pytest.mark.parametrize(
    ("flags", "cuda", "message"),
    [
        pytest.param({"devices": 2}, 0, r"got 2 devices per node \(`devices`/`gpus`\)\.", id="devices=2 refused"),
        pytest.param({"num_nodes": 2}, 0, r"got num_nodes=2\.", id="num_nodes=2 refused"),
        pytest.param({"num_nodes": 2, "devices": 3}, 0, r"got num_nodes=2 and 3 devices per node", id="both named"),
        pytest.param({"accelerator": "gpu", "devices": 2}, 2, r"got 2 devices per node", id="gpus=2 refused"),
        pytest.param({"accelerator": "gpu", "devices": [0, 1]}, 4, r"got 2 devices per node", id="gpu list refused"),
    ],
)
def test_horovod_refuses_explicit_process_layout(
    machine: Machine, flags: dict[str, Any], cuda: int, message: str
) -> None:
    machine(cuda=cuda, packages=HOROVOD)
    with pytest.raises(MisconfigurationException, match=message) as raised:
        AcceleratorConnector(strategy="horovod", **flags)
    text = str(raised.value)
    assert text.startswith("Horovod does not support setting num_nodes / devices explicitly, but `strategy='horovod'`")
    assert "use horovodrun / mpirun to configure the number of processes" in text


@pytest.mark.parametrize(
    ("flags", "cuda", "device"),
    [
        pytest.param({}, 0, "cpu", id="defaults: one cpu"),
        pytest.param({"devices": 1}, 0, "cpu", id="devices=1"),
        pytest.param({"accelerator": "gpu", "devices": 1}, 4, "cuda:0", id="gpu devices=1"),
        pytest.param(
            {"accelerator": "gpu"},
            4,
            "cuda:0",
            id="gpu without devices",
        ),
    ],
)
def test_horovod_accepts_the_default_layout(machine: Machine, flags: dict[str, Any], cuda: int, device: str) -> None:
    machine(cuda=cuda, packages=HOROVOD)
    strategy = AcceleratorConnector(strategy="horovod", **flags).strategy
    assert isinstance(strategy, HorovodStrategy)
    assert strategy.root_device == torch.device(device)
    assert strategy.launcher is None  # horovodrun started the processes


def test_horovod_layout_is_checked_before_the_package(machine: Machine) -> None:
    machine()
    with pytest.raises(MisconfigurationException, match="num_nodes=2") as raised:
        strategy = HorovodStrategy(parallel_devices=CPU)
        strategy.num_nodes = 2
        strategy.check_setup()
    assert not isinstance(raised.value, MissingBackendError)
    with pytest.raises(MissingBackendError, match=r"tools/install-horovod\.sh"):
        HorovodStrategy(parallel_devices=CPU).check_setup()


@pytest.mark.parametrize(
    ("env", "ranks"),
    [
        pytest.param({}, (0, 1, 0, 0), id="no launcher: a single process"),
        pytest.param(
            {"HOROVOD_RANK": "3", "HOROVOD_SIZE": "4", "HOROVOD_LOCAL_RANK": "1", "HOROVOD_CROSS_RANK": "1"},
            (3, 4, 1, 1),
            id="horovodrun (gloo) variables",
        ),
        pytest.param(
            {
                "OMPI_COMM_WORLD_RANK": "5",
                "OMPI_COMM_WORLD_SIZE": "8",
                "OMPI_COMM_WORLD_LOCAL_RANK": "1",
                "OMPI_COMM_WORLD_NODE_RANK": "2",
            },
            (5, 8, 1, 2),
            id="mpirun variables",
        ),
    ],
)
def test_ranks_come_from_horovods_launcher_before_init(
    machine: Machine, env: dict[str, str], ranks: tuple[int, int, int, int]
) -> None:
    machine(cuda=4, packages=HOROVOD, env=env)
    strategy = HorovodStrategy(parallel_devices=[torch.device("cuda", 0)])
    strategy.set_world_ranks()
    assert (strategy.global_rank, strategy.world_size, strategy.local_rank, strategy.node_rank) == ranks
    # Each process sees every GPU of its node and takes the one of its local rank.
    assert strategy.root_device == torch.device("cuda", ranks[2])
    assert strategy.distributed_sampler_kwargs == {"num_replicas": ranks[1], "rank": ranks[0]}


def test_before_setup_the_collectives_are_single_process_and_import_nothing() -> None:
    strategy = HorovodStrategy(parallel_devices=CPU)
    tensor = torch.tensor([1.0, 2.0])
    assert strategy.broadcast({"a": 1}, src=0) == {"a": 1}
    assert torch.equal(strategy.all_gather(tensor), tensor.unsqueeze(0))
    reduced = strategy.all_reduce(tensor, "mean")
    assert torch.equal(reduced, tensor) and reduced is not tensor
    assert strategy.reduce_boolean_decision(True) is True
    strategy.barrier("nothing to wait for")
    with pytest.raises(MisconfigurationException, match=r"`all_reduce\(op='max'\)` is not supported"):
        strategy.all_reduce(tensor, "max")  # type: ignore[arg-type]
    strategy.teardown()
    strategy.teardown()
    assert "horovod" not in sys.modules


def test_root_device_needs_devices() -> None:
    with pytest.raises(RuntimeError, match="has no devices yet"):
        _ = HorovodStrategy().root_device
    assert HorovodStrategy(parallel_devices=CPU2).root_device == torch.device("cpu")
