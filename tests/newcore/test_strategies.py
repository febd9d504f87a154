"""Strategies: construction, their own checks, their launchers and process-group defaults."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest
import torch

from newcore.accelerators.cpu import CPUAccelerator
from newcore.accelerators.cuda import CUDAAccelerator
from newcore.accelerators.ipu import IPUAccelerator
from newcore.exceptions import MisconfigurationException, MissingBackendError
from newcore.plugins.precision.amp import MixedPrecisionPlugin
from newcore.plugins.precision.apex_amp import ApexMixedPrecisionPlugin
from newcore.plugins.precision.deepspeed import DeepSpeedPrecisionPlugin
from newcore.plugins.precision.fully_sharded_native_amp import FullyShardedMixedPrecisionPlugin
from newcore.plugins.precision.precision_plugin import PrecisionPlugin
from newcore.plugins.precision.sharded_native_amp import ShardedMixedPrecisionPlugin
from newcore.strategies import (
    DataParallelStrategy,
    DDPFullyShardedStrategy,
    DDPShardedStrategy,
    DDPSpawnShardedStrategy,
    DDPSpawnStrategy,
    DDPStrategy,
    DeepSpeedStrategy,
    Strategy,
    StrategyRegistry,
    TPUSpawnStrategy,
)
from tests.conftest import Machine
from tests.newcore.test_registry import EXPECTED

CONCRETE = sorted({cls for cls, _ in EXPECTED.values()}, key=lambda c: c.__name__)
CPU2 = [torch.device("cpu", 0), torch.device("cpu", 1)]
CUDA2 = [torch.device("cuda", 0), torch.device("cuda", 1)]


@pytest.mark.parametrize("cls", CONCRETE, ids=lambda c: c.__name__)
def test_constructible_with_defaults(cls: type[Strategy]) -> None:
    strategy = cls()
    assert strategy.registered_name is None
    assert strategy.name == cls.__name__
    assert strategy.launcher is None  # launchers are configured once devices are attached
    assert cls.__name__ in repr(strategy)


def test_construction_touches_no_environment_variable() -> None:
    before = dict(os.environ)
    for name in StrategyRegistry.names():
        StrategyRegistry.get(name)
    assert dict(os.environ) == before
    assert "PT_XLA_DEBUG" not in os.environ


def test_no_optional_backend_is_imported_to_register_or_build() -> None:
    # Another process: this one may already have imported anything. A meta-path finder fails on any attempt.
    script = textwrap.dedent(
        """
        import sys
        BANNED = {"torch_xla", "horovod", "deepspeed", "fairscale", "poptorch", "apex"}

        class Refuse:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in BANNED:
                    raise AssertionError(f"imported {name}")
                return None

        sys.meta_path.insert(0, Refuse())
        from newcore.strategies import StrategyRegistry
        for name in StrategyRegistry.names():
            StrategyRegistry.get(name)
        print(len(StrategyRegistry.names()))
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(len(EXPECTED))


def test_single_device_roots() -> None:
    assert StrategyRegistry.get("single_device").root_device == torch.device("cpu")
    assert StrategyRegistry.get("single_device", device="cuda:1").root_device == torch.device("cuda", 1)
    assert StrategyRegistry.get("single_tpu").root_device == torch.device("xla", 0)
    assert StrategyRegistry.get("single_tpu", device=5).root_device == torch.device("xla", 5)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        pytest.param({"stage": 4}, r"`stage=4` is not a ZeRO stage", id="deepspeed stage 4"),
        pytest.param(
            {"offload_params_device": "gpu"}, r"`offload_params_device='gpu'` must be one of", id="bad offload"
        ),
    ],
)
def test_deepspeed_refuses_impossible_settings(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(MisconfigurationException, match=message):
        DeepSpeedStrategy(**kwargs)  # type: ignore[arg-type]


def test_spawn_refuses_unknown_start_method() -> None:
    with pytest.raises(MisconfigurationException, match=r"`start_method='thread'` is not a multiprocessing start"):
        DDPSpawnStrategy(start_method="thread")


# -- check_setup: what each strategy refuses ---------------------------------------------------


@pytest.mark.parametrize("name", ["dp", "ddp2"])
def test_dp_and_ddp2_refuse_cpu_and_accept_cuda(machine: Machine, name: str) -> None:
    machine(cuda=2)
    with pytest.raises(MisconfigurationException) as raised:
        StrategyRegistry.get(name, accelerator=CPUAccelerator(), parallel_devices=CPU2).check_setup()
    expected = f'`strategy={name!r}` is not supported on CPU; pass strategy="ddp" with accelerator="cpu".'
    assert str(raised.value) == expected
    StrategyRegistry.get(name, accelerator=CUDAAccelerator(), parallel_devices=CUDA2).check_setup()


def test_dp_unregistered_instance_is_named_by_class(machine: Machine) -> None:
    machine()
    with pytest.raises(MisconfigurationException, match=r"`strategy=DataParallelStrategy\(\)` is not supported on CPU"):
        DataParallelStrategy(accelerator=CPUAccelerator()).check_setup()


@pytest.mark.parametrize("name", ["ddp_sharded", "ddp_sharded_spawn", "ddp_fully_sharded", "fsdp"])
def test_sharding_refuses_apex_and_accepts_native_amp(machine: Machine, name: str) -> None:
    machine(cuda=2, packages={"apex"})
    strategy = StrategyRegistry.get(name, accelerator=CUDAAccelerator(), precision_plugin=ApexMixedPrecisionPlugin())
    with pytest.raises(MisconfigurationException) as raised:
        strategy.check_setup()
    message = str(raised.value)
    assert f"`strategy={name!r}` does not support NVIDIA Apex AMP" in message
    assert "Use native AMP instead: pass precision=16" in message
    strategy.precision_plugin = MixedPrecisionPlugin("16", "cuda")
    strategy.check_setup()


@pytest.mark.parametrize(
    ("name", "package", "hint"),
    [
        ("deepspeed", "deepspeed", "`pip install 'lightning-migrate[deepspeed]'`."),
        ("deepspeed_stage_3_offload", "deepspeed", "`pip install 'lightning-migrate[deepspeed]'`."),
        (
            "horovod",
            "horovod",
            "`pip install 'lightning-migrate[horovod]'`. If building the wheel fails, tools/install-",
        ),
        ("single_tpu", "torch_xla", "`pip install 'lightning-migrate[xla]'`."),
        ("tpu_spawn", "torch_xla", "`pip install 'lightning-migrate[xla]'`."),
        ("tpu_spawn_debug", "torch_xla", "`pip install 'lightning-migrate[xla]'`."),
        ("ipu_strategy", "poptorch", "poptorch-*.whl`. poptorch is not on PyPI: it ships with Graphcore's Poplar SDK"),
    ],
)
def test_missing_backend_says_how_to_install_it(machine: Machine, name: str, package: str, hint: str) -> None:
    machine()
    with pytest.raises(MissingBackendError) as raised:
        StrategyRegistry.get(name).check_setup()
    message = str(raised.value)
    assert message.startswith(f"strategy={name!r} requires the `{package}` package, which is not installed.")
    assert hint in message
    assert raised.value.package == package
    if package != "poptorch":  # the IPU strategy also needs an IPU accelerator, tested below
        machine(packages={package})
        StrategyRegistry.get(name).check_setup()


def test_ipu_strategy_needs_an_ipu_accelerator(machine: Machine) -> None:
    machine(ipu=4, packages={"poptorch"})
    with pytest.raises(
        MisconfigurationException, match=r"`strategy='ipu_strategy'` runs only on Graphcore IPUs.*'ipu'"
    ):
        StrategyRegistry.get("ipu_strategy", accelerator=CPUAccelerator()).check_setup()
    StrategyRegistry.get("ipu_strategy", accelerator=IPUAccelerator()).check_setup()


@pytest.mark.parametrize(
    "name",
    ["ddp_fork", "ddp_notebook", "ddp_fork_find_unused_parameters_false", "ddp_notebook_find_unused_parameters_false"],
)
def test_fork_variants_refused_where_fork_is_unavailable(machine: Machine, name: str) -> None:
    machine(fork=False)
    with pytest.raises(MisconfigurationException) as raised:
        StrategyRegistry.get(name, parallel_devices=CPU2).check_setup()
    message = str(raised.value)
    assert f"`strategy={name!r}` starts its workers by forking" in message
    assert "Use `strategy='ddp_spawn'` instead." in message


@pytest.mark.parametrize(("name", "fork"), [("ddp_spawn", False), ("ddp_fork", True), ("ddp_notebook", True)])
def test_start_method_available(machine: Machine, name: str, fork: bool) -> None:
    machine(fork=fork)
    StrategyRegistry.get(name, parallel_devices=CPU2).check_setup()


# -- defaults ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("strategy", "backend"),
    [
        pytest.param(DDPStrategy(parallel_devices=CPU2), "gloo", id="ddp on cpu: gloo"),
        pytest.param(DDPStrategy(parallel_devices=CUDA2), "nccl", id="ddp on cuda: nccl"),
        pytest.param(DDPSpawnStrategy(parallel_devices=CPU2), "gloo", id="ddp_spawn on cpu: gloo"),
        pytest.param(DDPSpawnStrategy(parallel_devices=CUDA2), "nccl", id="ddp_spawn on cuda: nccl"),
        pytest.param(DeepSpeedStrategy(parallel_devices=CUDA2), "nccl", id="deepspeed on cuda: nccl"),
        pytest.param(
            DDPStrategy(parallel_devices=CUDA2, process_group_backend="gloo"), "gloo", id="explicit backend wins"
        ),
    ],
)
def test_process_group_backend(strategy: DDPStrategy | DDPSpawnStrategy, backend: str) -> None:
    assert strategy.process_group_backend == backend


@pytest.mark.parametrize(
    ("cls", "precision", "expected"),
    [
        pytest.param(DDPShardedStrategy, "16", ShardedMixedPrecisionPlugin, id="sharded 16"),
        pytest.param(DDPSpawnShardedStrategy, "bf16", ShardedMixedPrecisionPlugin, id="sharded spawn bf16"),
        pytest.param(DDPShardedStrategy, "32", None, id="sharded 32: generic table"),
        pytest.param(DDPFullyShardedStrategy, "16", FullyShardedMixedPrecisionPlugin, id="fsdp 16"),
        pytest.param(DDPFullyShardedStrategy, "64", None, id="fsdp 64: generic table"),
        pytest.param(DeepSpeedStrategy, "32", DeepSpeedPrecisionPlugin, id="deepspeed 32"),
        pytest.param(DeepSpeedStrategy, "16", DeepSpeedPrecisionPlugin, id="deepspeed 16"),
        pytest.param(DeepSpeedStrategy, "bf16", DeepSpeedPrecisionPlugin, id="deepspeed bf16"),
        pytest.param(DDPStrategy, "16", None, id="ddp: generic table"),
        pytest.param(TPUSpawnStrategy, "bf16", None, id="tpu_spawn: accelerator decides"),
    ],
)
def test_default_precision_plugin(cls: type[Strategy], precision: str, expected: type[PrecisionPlugin] | None) -> None:
    plugin = cls.default_precision_plugin(precision, "cuda")
    if expected is None:
        assert plugin is None
    else:
        assert isinstance(plugin, expected)
        assert type(plugin) is expected
        assert plugin.precision == precision
