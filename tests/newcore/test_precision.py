"""Precision plugins: real autocast and dtype behaviour on the CPU, and refusals that name the flag."""

from __future__ import annotations

import os
import sys

import pytest
import torch

from newcore.exceptions import MisconfigurationException, MissingBackendError
from newcore.plugins.precision import (
    ApexMixedPrecisionPlugin,
    DeepSpeedPrecisionPlugin,
    DoublePrecisionPlugin,
    FullyShardedMixedPrecisionPlugin,
    IPUPrecisionPlugin,
    MixedPrecisionPlugin,
    PrecisionPlugin,
    ShardedMixedPrecisionPlugin,
    TPUBf16PrecisionPlugin,
    TPUPrecisionPlugin,
)
from tests.conftest import Machine


@pytest.mark.parametrize(
    ("build", "precision"),
    [
        pytest.param(PrecisionPlugin, "32", id="plain"),
        pytest.param(lambda: MixedPrecisionPlugin(16, "cuda"), "16", id="amp int 16"),
        pytest.param(lambda: MixedPrecisionPlugin("16-mixed", "cuda"), "16", id="amp 2.0 alias"),
        pytest.param(lambda: MixedPrecisionPlugin("bf16-mixed", "cpu"), "bf16", id="amp bf16"),
        pytest.param(DoublePrecisionPlugin, "64", id="double"),
        pytest.param(TPUPrecisionPlugin, "32", id="tpu"),
        pytest.param(TPUBf16PrecisionPlugin, "bf16", id="tpu bf16"),
        pytest.param(lambda: IPUPrecisionPlugin(16), "16", id="ipu 16"),
        pytest.param(lambda: DeepSpeedPrecisionPlugin("bf16"), "bf16", id="deepspeed bf16"),
        pytest.param(lambda: DeepSpeedPrecisionPlugin(32), "32", id="deepspeed 32"),
        pytest.param(lambda: ShardedMixedPrecisionPlugin(16, "cuda"), "16", id="sharded"),
        pytest.param(lambda: FullyShardedMixedPrecisionPlugin("16", "cuda"), "16", id="fully sharded"),
    ],
)
def test_precision_attribute_is_normalized(build: type[PrecisionPlugin], precision: str) -> None:
    assert build().precision == precision


def test_bf16_autocast_on_cpu_really_computes_in_bf16() -> None:
    plugin = MixedPrecisionPlugin("bf16", "cpu")
    a, b = torch.randn(4, 4), torch.randn(4, 4)
    with plugin.autocast():
        inside = a @ b
    assert inside.dtype == torch.bfloat16
    assert (a @ b).dtype == torch.float32
    assert plugin.scaler is None


def test_float16_on_cuda_creates_no_scaler_until_used() -> None:
    plugin = MixedPrecisionPlugin("16", "cuda")
    assert plugin._scaler is None
    assert plugin.state_dict() == {}
    assert not torch.cuda.is_initialized()  # type: ignore[no-untyped-call]


def test_sharded_plugins_scale_across_shards() -> None:
    from torch.distributed.fsdp.sharded_grad_scaler import ShardedGradScaler

    for cls in (ShardedMixedPrecisionPlugin, FullyShardedMixedPrecisionPlugin):
        plugin = cls(16, "cuda")
        assert issubclass(cls, MixedPrecisionPlugin)
        with pytest.warns(UserWarning, match="CUDA is not available"):  # this CPU-only box disables the scaler
            assert isinstance(plugin.scaler, ShardedGradScaler)


def test_bf16_backward_and_step_without_scaler() -> None:
    plugin = MixedPrecisionPlugin("bf16", "cpu")
    layer = torch.nn.Linear(3, 1)
    optimizer = torch.optim.SGD(layer.parameters(), lr=0.1)
    before = layer.weight.detach().clone()
    with plugin.autocast():
        loss = layer(torch.ones(2, 3)).float().sum()
    plugin.backward(loss)
    plugin.optimizer_step(optimizer)
    assert not torch.equal(before, layer.weight)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param((32, "cuda"), "`MixedPrecisionPlugin(precision=32)` is not a mixed precision", id="32"),
        pytest.param(("64", "cpu"), "precision='64'", id="64"),
        pytest.param(("fp8", "cuda"), "precision='fp8'", id="unknown"),
        pytest.param(("16", "mps"), "`precision='16'` is not supported on 'mps' devices", id="mps device"),
    ],
)
def test_mixed_precision_refuses(args: tuple[object, str], message: str) -> None:
    with pytest.raises(MisconfigurationException) as error:
        MixedPrecisionPlugin(*args)  # type: ignore[arg-type]
    assert message in str(error.value)


def test_bf16_refuses_a_scaler() -> None:
    scaler = torch.amp.GradScaler("cpu")
    with pytest.raises(MisconfigurationException, match=r"`precision='bf16'` does not scale the loss.*Drop the scaler"):
        MixedPrecisionPlugin("bf16", "cpu", scaler=scaler)


def test_double_casts_module_and_restores_default_dtype() -> None:
    plugin = DoublePrecisionPlugin()
    module = plugin.convert_module(torch.nn.Linear(2, 2))
    assert module.weight.dtype == torch.float64
    with plugin.autocast():
        assert torch.get_default_dtype() == torch.float64
        assert module(torch.zeros(1, 2)).dtype == torch.float64
    assert torch.get_default_dtype() == torch.float32


def test_double_restores_default_dtype_after_an_error() -> None:
    with pytest.raises(RuntimeError, match="boom"), DoublePrecisionPlugin().autocast():
        raise RuntimeError("boom")
    assert torch.get_default_dtype() == torch.float32


def test_tpu_bf16_exports_xla_flag_only_during_setup() -> None:
    plugin = TPUBf16PrecisionPlugin()
    assert "XLA_USE_BF16" not in os.environ
    plugin.convert_module(torch.nn.Linear(1, 1))
    assert os.environ["XLA_USE_BF16"] == "1"
    plugin.teardown()
    assert "XLA_USE_BF16" not in os.environ


def test_tpu_bf16_teardown_restores_a_users_value(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XLA_USE_BF16", "0")
    plugin = TPUBf16PrecisionPlugin()
    plugin.convert_module(torch.nn.Linear(1, 1))
    plugin.teardown()
    assert os.environ["XLA_USE_BF16"] == "0"


@pytest.mark.skipif("torch_xla" in sys.modules, reason="needs a machine without torch-xla")
def test_tpu_step_without_xla_names_the_extra(machine: Machine) -> None:
    optimizer = torch.optim.SGD(torch.nn.Linear(1, 1).parameters(), lr=0.1)
    with pytest.raises(MissingBackendError, match=r"pip install 'lightning-migrate\[xla\]'"):
        TPUPrecisionPlugin().optimizer_step(optimizer)


@pytest.mark.parametrize("precision", ["bf16", 64, "64", "fp8"])
def test_ipu_refuses_precisions_other_than_16_and_32(precision: object) -> None:
    with pytest.raises(MisconfigurationException) as error:
        IPUPrecisionPlugin(precision)  # type: ignore[arg-type]
    assert f"`precision={precision!r}` is not supported with accelerator='ipu': IPUs train in 16 or 32" in str(
        error.value
    )


def test_ipu_16_casts_to_half() -> None:
    assert IPUPrecisionPlugin(16).convert_module(torch.nn.Linear(1, 1)).weight.dtype == torch.float16
    assert IPUPrecisionPlugin(32).convert_module(torch.nn.Linear(1, 1)).weight.dtype == torch.float32


def test_apex_missing_says_how_to_install_and_that_native_amp_needs_none(machine: Machine) -> None:
    machine()
    with pytest.raises(MissingBackendError) as error:
        ApexMixedPrecisionPlugin()
    message = str(error.value)
    assert "pip install -v --no-build-isolation git+https://github.com/NVIDIA/apex" in message
    assert "Native AMP needs no apex" in message and "`precision=16`" in message
    assert error.value.package == "apex"


@pytest.mark.parametrize("level", ["O4", "o2", "", "O"])
def test_apex_refuses_unknown_amp_level(machine: Machine, level: str) -> None:
    machine(packages={"apex"})
    with pytest.raises(MisconfigurationException, match=rf"`amp_level={level!r}` is not an apex optimisation level"):
        ApexMixedPrecisionPlugin(level)


def test_apex_with_apex_installed(machine: Machine) -> None:
    machine(packages={"apex"})
    plugin = ApexMixedPrecisionPlugin("O1")
    assert (plugin.precision, plugin.amp_level) == ("16", "O1")


@pytest.mark.parametrize("precision", [64, "64", "fp8"])
def test_deepspeed_refuses(precision: object) -> None:
    with pytest.raises(MisconfigurationException, match=rf"`precision={precision!r}` is not supported with strategy"):
        DeepSpeedPrecisionPlugin(precision)  # type: ignore[arg-type]


def test_deepspeed_backward_goes_through_the_engine() -> None:
    calls: list[torch.Tensor] = []

    class Engine:
        def backward(self, tensor: torch.Tensor) -> None:
            calls.append(tensor)

    loss = torch.tensor(1.0)
    DeepSpeedPrecisionPlugin(16).backward(loss, engine=Engine())
    assert calls == [loss]
    with pytest.raises(RuntimeError, match="needs the DeepSpeed engine"):
        DeepSpeedPrecisionPlugin(16).backward(loss)


def test_no_optional_backend_imported() -> None:
    assert not {"torch_xla", "poptorch", "horovod", "deepspeed", "apex"} & set(sys.modules)
