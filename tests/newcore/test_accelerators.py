"""The concrete accelerators: registry names, availability, device parsing and precision defaults."""

from __future__ import annotations

import os
import sys

import pytest
import torch

from newcore.accelerators import (
    Accelerator,
    AcceleratorRegistry,
    CPUAccelerator,
    CUDAAccelerator,
    IPUAccelerator,
    MPSAccelerator,
    TPUAccelerator,
)
from newcore.exceptions import MisconfigurationException
from newcore.plugins.precision import IPUPrecisionPlugin, TPUBf16PrecisionPlugin, TPUPrecisionPlugin
from newcore.warnings import FallbackWarning
from tests.conftest import Machine


def test_registered_names_are_exactly_the_six_accelerators() -> None:
    assert set(AcceleratorRegistry.names()) == {"cpu", "cuda", "gpu", "mps", "tpu", "ipu"}


@pytest.mark.parametrize(
    ("name", "cls"),
    [
        pytest.param("cpu", CPUAccelerator, id="cpu"),
        pytest.param("cuda", CUDAAccelerator, id="cuda"),
        pytest.param("gpu", CUDAAccelerator, id="gpu is the 1.x name of cuda"),
        pytest.param("mps", MPSAccelerator, id="mps"),
        pytest.param("tpu", TPUAccelerator, id="tpu"),
        pytest.param("ipu", IPUAccelerator, id="ipu"),
    ],
)
def test_registry_builds_the_class(name: str, cls: type[Accelerator]) -> None:
    entry = AcceleratorRegistry.entry(name)
    assert entry.cls is cls
    assert entry.description and entry.description != cls.__qualname__
    assert type(AcceleratorRegistry.get(name)) is cls


def test_importing_accelerators_loads_no_optional_backend() -> None:
    assert not {"torch_xla", "poptorch", "horovod", "deepspeed", "apex"} & set(sys.modules)


def test_subclass_without_hook_does_not_steal_names() -> None:
    class MyCUDA(CUDAAccelerator):
        pass

    assert AcceleratorRegistry.entry("cuda").cls is CUDAAccelerator
    assert AcceleratorRegistry.names_for(MyCUDA) == []


@pytest.mark.parametrize(
    ("hardware", "available"),
    [
        pytest.param({}, {"cpu"}, id="laptop: only the CPU"),
        pytest.param({"cuda": 2}, {"cpu", "cuda"}, id="2 GPUs"),
        pytest.param({"mps": True}, {"cpu", "mps"}, id="Apple silicon"),
        pytest.param({"tpu": 8}, {"cpu", "tpu"}, id="TPU host"),
        pytest.param({"ipu": 4}, {"cpu", "ipu"}, id="IPU pod"),
    ],
)
def test_is_available_follows_the_probe(machine: Machine, hardware: dict[str, int], available: set[str]) -> None:
    machine(**hardware)
    classes = {"cpu": CPUAccelerator, "cuda": CUDAAccelerator, "mps": MPSAccelerator}
    classes.update({"tpu": TPUAccelerator, "ipu": IPUAccelerator})
    assert {name for name, cls in classes.items() if cls.is_available()} == available


@pytest.mark.parametrize(
    ("cls", "hardware", "count"),
    [
        pytest.param(CPUAccelerator, {}, 1, id="cpu: one process"),
        pytest.param(CUDAAccelerator, {"cuda": 3}, 3, id="cuda: every GPU"),
        pytest.param(MPSAccelerator, {"mps": True}, 1, id="mps: the one GPU"),
        pytest.param(TPUAccelerator, {"tpu": 4}, 4, id="tpu: what the probe counts"),
        pytest.param(TPUAccelerator, {}, 8, id="tpu: a full host when uncounted"),
        pytest.param(IPUAccelerator, {"ipu": 16}, 4, id="ipu: one unit of four"),
    ],
)
def test_auto_device_count(machine: Machine, cls: type[Accelerator], hardware: dict[str, int], count: int) -> None:
    machine(**hardware)
    assert cls.auto_device_count() == count


@pytest.mark.parametrize(
    ("cls", "hardware", "devices", "expected"),
    [
        pytest.param(CPUAccelerator, {}, 2, [torch.device("cpu")] * 2, id="cpu devices=2"),
        pytest.param(CPUAccelerator, {}, "auto", [torch.device("cpu")], id="cpu devices=auto"),
        pytest.param(
            CUDAAccelerator, {"cuda": 4}, "1,3", [torch.device("cuda", 1), torch.device("cuda", 3)], id="cuda '1,3'"
        ),
        pytest.param(
            CUDAAccelerator, {"cuda": 2}, -1, [torch.device("cuda", 0), torch.device("cuda", 1)], id="cuda -1"
        ),
        pytest.param(MPSAccelerator, {"mps": True}, 1, [torch.device("mps", 0)], id="mps devices=1"),
        pytest.param(TPUAccelerator, {"tpu": 8}, 8, [torch.device("xla", i) for i in range(8)], id="tpu 8 cores"),
        pytest.param(TPUAccelerator, {"tpu": 8}, [5], [torch.device("xla", 5)], id="tpu core [5]"),
        pytest.param(IPUAccelerator, {"ipu": 8}, "auto", [torch.device("ipu", i) for i in range(4)], id="ipu auto"),
    ],
)
def test_parse_then_parallel_devices(
    machine: Machine, cls: type[Accelerator], hardware: dict[str, int], devices: object, expected: list[torch.device]
) -> None:
    machine(**hardware)
    assert cls.get_parallel_devices(cls.parse_devices(devices)) == expected


@pytest.mark.parametrize(
    ("cls", "hardware", "devices", "message"),
    [
        pytest.param(CUDAAccelerator, {"cuda": 2}, [2], "this machine has [0, 1]", id="cuda index past the last GPU"),
        pytest.param(CUDAAccelerator, {}, 1, "this machine has none", id="cuda on a machine without GPUs"),
        pytest.param(MPSAccelerator, {"mps": True}, 2, "this machine has [0]", id="mps has a single device"),
        pytest.param(CPUAccelerator, {}, [0, 1], "not device indices", id="cpu takes a count"),
        pytest.param(IPUAccelerator, {"ipu": 4}, 0, "at least 1", id="ipu devices=0"),
        pytest.param(TPUAccelerator, {"tpu": 8}, 3, "TPUs take 1 or 8 cores", id="tpu 3 cores"),
    ],
)
def test_parse_devices_refuses(
    machine: Machine, cls: type[Accelerator], hardware: dict[str, int], devices: object, message: str
) -> None:
    machine(**hardware)
    with pytest.raises(MisconfigurationException) as error:
        cls.parse_devices(devices)
    assert message in str(error.value)
    assert f"devices={devices!r}" in str(error.value)


@pytest.mark.parametrize(
    ("accelerator", "device"),
    [
        pytest.param(CPUAccelerator(), torch.device("cuda", 0), id="cpu accelerator given a cuda device"),
        pytest.param(CUDAAccelerator(), torch.device("cpu"), id="cuda accelerator given the cpu"),
        pytest.param(TPUAccelerator(), torch.device("cpu"), id="tpu accelerator given the cpu"),
    ],
)
def test_setup_device_refuses_a_foreign_device(accelerator: Accelerator, device: torch.device) -> None:
    with pytest.raises(MisconfigurationException, match=f"set up device {device}"):
        accelerator.setup_device(device)


def test_cuda_teardown_does_not_initialise_cuda() -> None:
    CUDAAccelerator().teardown()
    assert not torch.cuda.is_initialized()  # type: ignore[no-untyped-call]


def test_tpu_teardown_pops_xla_debug_and_leaves_bf16_to_its_plugin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PT_XLA_DEBUG", "1")
    monkeypatch.setenv("XLA_USE_BF16", "1")  # the user's own: the bf16 plugin restores it at its teardown
    TPUAccelerator().teardown()
    assert "PT_XLA_DEBUG" not in os.environ
    assert os.environ["XLA_USE_BF16"] == "1"


@pytest.mark.parametrize(
    ("precision", "plugin"),
    [
        pytest.param("32", TPUPrecisionPlugin, id="tpu 32 is full precision"),
        pytest.param("bf16", TPUBf16PrecisionPlugin, id="tpu bf16"),
    ],
)
def test_tpu_default_precision_plugin(precision: str, plugin: type[TPUPrecisionPlugin]) -> None:
    assert type(TPUAccelerator().default_precision_plugin(precision)) is plugin


def test_tpu_precision_16_falls_back_to_bf16_with_a_warning() -> None:
    with pytest.warns(FallbackWarning, match=r"`precision=16`.*not supported on TPUs.*'bf16'"):
        plugin = TPUAccelerator().default_precision_plugin("16")
    assert isinstance(plugin, TPUBf16PrecisionPlugin)


def test_tpu_precision_64_is_refused() -> None:
    with pytest.raises(MisconfigurationException, match=r"accelerator='tpu'.*precision=64.*`precision=32` or"):
        TPUAccelerator().default_precision_plugin("64")


@pytest.mark.parametrize("precision", ["16", "32"])
def test_ipu_default_precision_plugin(precision: str) -> None:
    plugin = IPUAccelerator().default_precision_plugin(precision)
    assert isinstance(plugin, IPUPrecisionPlugin)
    assert plugin.precision == precision


def test_ipu_refuses_bf16() -> None:
    with pytest.raises(MisconfigurationException, match=r"`precision='bf16'` is not supported with accelerator='ipu'"):
        IPUAccelerator().default_precision_plugin("bf16")


@pytest.mark.parametrize("cls", [CPUAccelerator, CUDAAccelerator, MPSAccelerator])
def test_generic_accelerators_leave_precision_to_the_table(cls: type[Accelerator]) -> None:
    assert cls().default_precision_plugin("16") is None
