"""The 1.5 Trainer properties on the 2.x Trainer: the values 1.5 returned for the same flags (CPU machine)."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from compat._warn import CompatDeprecationWarning

BASE = {"logger": False, "enable_checkpointing": False, "enable_progress_bar": False, "enable_model_summary": False}

ROWS = [
    pytest.param({}, "gpus", None, id="gpus off the GPU is None"),
    pytest.param({}, "num_gpus", 0, id="num_gpus off the GPU is 0"),
    pytest.param({}, "root_gpu", None, id="root_gpu off the GPU is None"),
    pytest.param({}, "data_parallel_device_ids", None, id="data_parallel_device_ids off the GPU"),
    pytest.param({}, "tpu_cores", None, id="tpu_cores off the TPU"),
    pytest.param({}, "ipus", 0, id="ipus"),
    pytest.param({"num_processes": 2, "accelerator": "ddp_cpu"}, "num_processes", 2, id="num_processes"),
    pytest.param({"num_processes": 2, "accelerator": "ddp_cpu"}, "devices", 2, id="devices as given"),
    pytest.param(
        {"num_processes": 2, "accelerator": "ddp_cpu"},
        "_distrib_type",
        "ddp_spawn",
        id="_distrib_type (spawned under pytest, as 1.5.10)",
    ),
    pytest.param({}, "_distrib_type", None, id="_distrib_type for one device"),
    pytest.param({}, "_device_type", "cpu", id="_device_type"),
    pytest.param({}, "use_amp", False, id="use_amp"),
    pytest.param({}, "amp_backend", None, id="amp_backend without AMP"),
    pytest.param({}, "on_gpu", False, id="on_gpu"),
    pytest.param({}, "on_tpu", False, id="on_tpu"),
    pytest.param({}, "use_dp", False, id="use_dp"),
    pytest.param({"num_processes": 2, "accelerator": "ddp_cpu"}, "use_ddp", True, id="use_ddp"),
]


@pytest.mark.parametrize(("flags", "name", "expected"), ROWS)
def test_property_has_its_15_value(shim: Any, flags: dict[str, Any], name: str, expected: Any) -> None:
    import pytorch_lightning as pl

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        trainer = pl.Trainer(**flags, **BASE)
        value = getattr(trainer, name)
    assert value == expected


def test_strategy_properties_are_the_strategy(shim: Any) -> None:
    import pytorch_lightning as pl

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        trainer = pl.Trainer(**BASE)
        assert trainer.training_type_plugin is trainer.strategy
        assert trainer.accelerator.training_type_plugin is trainer.strategy
        assert trainer.accelerator.precision_plugin is trainer.precision_plugin
    olds = [w.message.notice.old for w in caught if issubclass(w.category, CompatDeprecationWarning)]  # type: ignore[union-attr]
    assert olds == [
        "`trainer.training_type_plugin`",
        "`trainer.accelerator.training_type_plugin`",
        "`trainer.accelerator.precision_plugin`",
    ]
