"""1.5 Trainer flags on the real 2.x Trainer, on this (CPU-only) machine: what is selected, or the error."""

from __future__ import annotations

import argparse
import warnings
from typing import Any

import pytest

from compat._warn import CompatDeprecationWarning

BASE = {"logger": False, "enable_checkpointing": False, "enable_progress_bar": False, "enable_model_summary": False}

#: flags -> (strategy class, accelerator class, num_devices) or "error: <text>" / "removed: <text>".
FLAGS = [
    pytest.param({"accelerator": "ddp_cpu", "num_processes": 2}, ("DDPStrategy", "CPUAccelerator", 2), id="ddp_cpu x2"),
    pytest.param(
        {"num_processes": 2, "accelerator": "ddp"}, ("DDPStrategy", "CPUAccelerator", 2), id="accelerator=ddp"
    ),
    pytest.param(
        {"num_processes": 2, "distributed_backend": "ddp_spawn"},
        ("DDPStrategy", "CPUAccelerator", 2),
        id="distributed_backend",
    ),
    pytest.param(
        {"num_processes": 2, "plugins": ["ddp_find_unused_parameters_false"]},
        ("DDPStrategy", "CPUAccelerator", 2),
        id="strategy name in plugins=",
    ),
    pytest.param({"gpus": 0}, ("SingleDeviceStrategy", "CPUAccelerator", 1), id="gpus=0 is one CPU"),
    pytest.param(
        {"gpus": None, "strategy": None, "accelerator": None},
        ("SingleDeviceStrategy", "CPUAccelerator", 1),
        id="None values 2.x rejects",
    ),
    pytest.param({"strategy": "ddp"}, ("SingleDeviceStrategy", "CPUAccelerator", 1), id="ddp on one CPU had no effect"),
    pytest.param({"num_processes": 2, "strategy": "dp"}, ("DDPStrategy", "CPUAccelerator", 2), id="dp on CPUs ran ddp"),
    pytest.param(
        {"accelerator": "auto"}, ("SingleDeviceStrategy", "CPUAccelerator", 1), id="auto without devices was the CPU"
    ),
    pytest.param(
        {"amp_backend": "native", "precision": 32},
        ("SingleDeviceStrategy", "CPUAccelerator", 1),
        id="amp_backend native",
    ),
    pytest.param(
        {"replace_sampler_ddp": False}, ("SingleDeviceStrategy", "CPUAccelerator", 1), id="replace_sampler_ddp"
    ),
    pytest.param(
        {"auto_select_gpus": True}, ("SingleDeviceStrategy", "CPUAccelerator", 1), id="auto_select_gpus without gpus"
    ),
    pytest.param({"gpus": 2, "strategy": "dp"}, "removed: DataParallel", id="dp on GPUs is removed"),
    pytest.param({"gpus": 2, "accelerator": "ddp2"}, "removed: DDP2", id="ddp2 is removed"),
    pytest.param({"num_processes": 2, "strategy": "ddp_sharded"}, "removed: FairScale", id="FairScale is removed"),
    pytest.param({"ipus": 4}, "removed: lightning-graphcore", id="IPUs are removed"),
    pytest.param({"gpus": 1, "precision": 16, "amp_backend": "apex"}, "removed: apex", id="apex is removed"),
    pytest.param({"strategy": "ddp", "accelerator": "ddp_spawn"}, "error: both select a strategy", id="two strategies"),
    pytest.param(
        {"strategy": "dp", "accelerator": "cpu", "devices": 2}, "removed: DataParallel is removed", id="dp on the CPU"
    ),
    pytest.param({"strategy": "tpu_spawn_debug"}, "removed: xla_debug", id="tpu_spawn_debug off TPUs is removed"),
    pytest.param({"strategy": "fsdp"}, "removed: FairScale's FSDP", id="FairScale FSDP on the CPU is removed"),
    pytest.param(
        {"num_processes": 2, "plugins": ["ddp", "ddp_sharded"]}, "removed: FairScale", id="a FairScale name in plugins="
    ),
]


@pytest.mark.parametrize(("flags", "expected"), FLAGS)
def test_legacy_flags_select_on_the_real_trainer(shim: Any, flags: dict[str, Any], expected: Any) -> None:
    import pytorch_lightning as pl
    from lightning_fabric.utilities.exceptions import MisconfigurationException

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if isinstance(expected, str):
            kind, _, text = expected.partition(": ")
            error = shim.RemovedFeatureError if kind == "removed" else MisconfigurationException
            with pytest.raises(error, match=text):
                pl.Trainer(**flags, **BASE)
            return
        trainer = pl.Trainer(**flags, **BASE)
    strategy, accelerator, devices = expected
    assert (type(trainer.strategy).__name__, type(trainer.accelerator).__name__, trainer.num_devices) == (
        strategy,
        accelerator,
        devices,
    )


def test_each_legacy_flag_warns_naming_its_rule(shim: Any) -> None:
    import pytorch_lightning as pl

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pl.Trainer(accelerator="ddp_cpu", num_processes=2, **BASE)
    notices = [w.message.notice for w in caught if issubclass(w.category, CompatDeprecationWarning)]  # type: ignore[union-attr]
    assert ("`Trainer(accelerator='ddp_cpu')`", "ddp_cpu") in [(n.old, n.rule) for n in notices]
    assert all(w.filename == __file__ for w in caught if issubclass(w.category, CompatDeprecationWarning))


def test_argparse_helpers_are_back(shim: Any) -> None:
    import pytorch_lightning as pl

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parser = pl.Trainer.add_argparse_args(argparse.ArgumentParser())
        args = parser.parse_args(["--num_processes", "2", "--accelerator", "ddp_cpu", "--max_epochs", "3"])
        trainer = pl.Trainer.from_argparse_args(args, **BASE)
    assert (type(trainer.strategy).__name__, trainer.num_devices, trainer.max_epochs) == ("DDPStrategy", 2, 3)


def test_under_pytest_several_processes_spawn_as_in_1_5(shim: Any) -> None:
    """legacy_api.launch_policy: 2.x's "ddp" would run this pytest session again in each child process."""
    import pytorch_lightning as pl

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        trainer = pl.Trainer(accelerator="ddp_cpu", num_processes=2, **BASE)
    assert (type(trainer.strategy).__name__, trainer.strategy._start_method) == ("DDPStrategy", "spawn")


def test_gpus_next_to_ddp_cpu_warns_that_it_is_not_used(shim: Any) -> None:
    import pytorch_lightning as pl

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pl.Trainer(accelerator="ddp_cpu", num_processes=2, gpus=2, **BASE)
    notices = [w.message.notice for w in caught if issubclass(w.category, CompatDeprecationWarning)]  # type: ignore[union-attr]
    assert ("`Trainer(gpus=2)`", "ddp_cpu") in [(n.old, n.rule) for n in notices]


def test_a_cluster_plugin_outside_its_cluster_names_the_variable(shim: Any) -> None:
    """1.5 raised a bare KeyError('SLURM_NODEID') here; the shim says what is missing and why."""
    import pytorch_lightning as pl
    from lightning_fabric.utilities.exceptions import MisconfigurationException
    from pytorch_lightning.plugins.environments import SLURMEnvironment

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(MisconfigurationException, match=r"SLURMEnvironment\(\)\] reads the environment variable"):
            pl.Trainer(plugins=[SLURMEnvironment()], num_processes=2, **BASE)


def test_the_accelerator_keeps_its_strategy_through_pickling(shim: Any) -> None:
    """ddp_spawn pickles the trainer into each child: the shim's reference from accelerator to strategy must pickle
    and point at the child's strategy (a plain weakref.ref raised "cannot pickle 'weakref.ReferenceType' object")."""
    import pickle

    import pytorch_lightning as pl

    from compat.lightning._trainer import STRATEGY_REF

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        trainer = pl.Trainer(accelerator="ddp_cpu", num_processes=2, **BASE)
    accelerator, strategy = pickle.loads(pickle.dumps((trainer.accelerator, trainer.strategy)))
    assert accelerator.__dict__[STRATEGY_REF]() is strategy
