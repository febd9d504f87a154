"""``compat.Runner``: the connector's translation and properties on newcore's Runner."""

from __future__ import annotations

import inspect
from typing import Any

import pytest
import torch
from torch.utils.data import DataLoader, SequentialSampler, TensorDataset

import compat
from newcore.runner import Runner as NewRunner

# fmt: off
ROWS = [
    pytest.param({"gpus": 2, "accelerator": "ddp"}, {"cuda": 2}, "ddp", ["`Runner(accelerator='ddp')`", "`Runner(gpus=2)`"], id="gpus=2, accelerator='ddp'"),
    pytest.param({"num_processes": 2}, {}, "ddp_spawn", ["`Runner(num_processes=2)`"], id="num_processes=2"),
    pytest.param({"strategy": "dp"}, {}, "single_device", ["`Runner(strategy='dp')`"], id="dp on one cpu has no effect"),
]
# fmt: on


@pytest.mark.parametrize(("flags", "hw", "strategy", "warns"), ROWS)
def test_runner_translates_like_the_connector(
    machine: Any, flags: dict[str, Any], hw: dict[str, Any], strategy: str, warns: list[str]
) -> None:
    machine(**hw)
    with pytest.warns(compat.CompatDeprecationWarning) as record:
        runner = compat.Runner(**flags)
    assert [str(w.message).split(" is ")[0] for w in record] == warns
    assert runner.strategy.registered_name == strategy


def test_runner_properties_warn_with_runner_spelling(machine: Any) -> None:
    machine(cuda=2)
    runner = compat.Runner(accelerator="gpu", devices=2, strategy="ddp")
    with pytest.warns(compat.CompatDeprecationWarning, match=r"Use `runner.num_devices` instead") as record:
        assert runner.num_gpus == 2
    assert len(record) == 1
    with pytest.warns(compat.CompatDeprecationWarning, match=r"`Runner.accelerator.training_type_plugin`"):
        assert runner.accelerator.training_type_plugin is runner.strategy  # type: ignore[union-attr]


def test_replace_sampler_ddp_false_keeps_the_loader() -> None:
    loader = DataLoader(TensorDataset(torch.zeros(4, 1)), sampler=SequentialSampler(range(4)))
    with pytest.warns(compat.CompatDeprecationWarning, match="use_distributed_sampler=False"):
        runner = compat.Runner(replace_sampler_ddp=False)
    assert runner.setup_dataloaders(loader) is loader
    runner.teardown()


def test_runner_takes_every_new_flag_with_the_same_defaults() -> None:
    new = inspect.signature(NewRunner.__init__).parameters
    old = inspect.signature(compat.Runner.__init__).parameters
    for name, parameter in new.items():
        if parameter.kind is inspect.Parameter.KEYWORD_ONLY:
            assert old[name].default == parameter.default, name


@pytest.mark.parametrize("entry", [compat.Runner, compat.AcceleratorConnector], ids=lambda e: e.__name__)
def test_entry_points_take_exactly_the_legacy_flags(entry: type) -> None:
    """The legacy part of the signature is written in two places; both must be the one list, defaulting to None."""
    from legacy_api.lightning15 import LEGACY_FLAGS

    new = inspect.signature(NewRunner.__init__).parameters
    params = inspect.signature(entry.__init__).parameters
    legacy = [name for name, p in params.items() if p.kind is inspect.Parameter.KEYWORD_ONLY and name not in new]
    assert sorted(legacy) == sorted(LEGACY_FLAGS)
    assert all(params[name].default is None for name in LEGACY_FLAGS)
    runner = inspect.signature(compat.Runner.__init__).parameters
    assert [str(params[name].annotation) for name in LEGACY_FLAGS] == [
        str(runner[name].annotation) for name in LEGACY_FLAGS
    ]
