"""The 1.5 properties: (flags, machine) -> property -> what Lightning 1.5 returned, each read warning once."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

import compat
from compat._rows import PROPERTIES

GPU2 = ({"accelerator": "gpu", "devices": 2, "strategy": "ddp"}, {"cuda": 2})
GPU2_SPAWN = ({"accelerator": "gpu", "devices": [1, 3], "strategy": "ddp_spawn"}, {"cuda": 4})
CPU1 = ({}, {})
CPU3 = ({"accelerator": "cpu", "devices": 3}, {})
DP = ({"accelerator": "gpu", "devices": 2, "strategy": "dp"}, {"cuda": 2})
DDP2 = ({"accelerator": "gpu", "devices": 2, "strategy": "ddp2", "num_nodes": 3}, {"cuda": 2})
TPU8 = ({"accelerator": "tpu", "devices": 8}, {"tpu": 8, "packages": {"torch_xla"}})
TPU_CORE = ({"accelerator": "tpu", "devices": [5]}, {"tpu": 8, "packages": {"torch_xla"}})
IPU4 = ({"accelerator": "ipu", "devices": 4}, {"ipu": 4, "packages": {"poptorch"}})
DS = ({"accelerator": "gpu", "devices": 2, "strategy": "deepspeed"}, {"cuda": 2, "packages": {"deepspeed"}})
HVD = ({"strategy": "horovod"}, {"packages": {"horovod"}})
AMP16 = ({"accelerator": "gpu", "devices": 1, "precision": 16}, {"cuda": 1})


def row(setup: tuple[dict[str, Any], dict[str, Any]], name: str, expected: Any, id: str) -> Any:
    return pytest.param(setup[0], setup[1], name, expected, id=f"{name}: {id}")


# fmt: off
ROWS = [
    row(GPU2, "use_ddp", True, "ddp"), row(GPU2_SPAWN, "use_ddp", True, "ddp_spawn"), row(DS, "use_ddp", True, "deepspeed"),
    row(DP, "use_ddp", False, "dp"), row(CPU1, "use_ddp", False, "one cpu"), row(TPU8, "use_ddp", True, "tpu_spawn"),
    row(DDP2, "use_ddp2", True, "ddp2"), row(GPU2, "use_ddp2", False, "ddp"),
    row(DP, "use_dp", True, "dp"), row(GPU2, "use_dp", False, "ddp"),
    row(HVD, "use_horovod", True, "horovod"), row(GPU2, "use_horovod", False, "ddp"),
    row(DS, "use_deepspeed", True, "deepspeed"), row(GPU2, "use_deepspeed", False, "ddp"),
    row(GPU2, "is_distributed", True, "ddp"), row(DP, "is_distributed", False, "dp was not distributed in 1.5"),
    row(CPU1, "is_distributed", False, "one cpu"), row(TPU8, "is_distributed", True, "tpu_spawn"),
    row(CPU1, "on_cpu", True, "cpu"), row(GPU2, "on_cpu", False, "gpu"),
    row(GPU2, "on_gpu", True, "gpu"), row(CPU1, "on_gpu", False, "cpu"),
    row(TPU8, "on_tpu", True, "tpu"), row(IPU4, "on_ipu", True, "ipu"), row(GPU2, "on_tpu", False, "gpu"),
    row(GPU2, "gpus", 2, "devices of a gpu accelerator"), row(CPU1, "gpus", None, "cpu"),
    row(GPU2, "num_gpus", 2, "gpu"), row(CPU3, "num_gpus", 0, "0 off the GPU"),
    row(GPU2_SPAWN, "root_gpu", 1, "first index"), row(CPU1, "root_gpu", None, "None off the GPU"),
    row(GPU2_SPAWN, "parallel_device_ids", [1, 3], "indices"), row(CPU1, "parallel_device_ids", None, "cpu"),
    row(GPU2_SPAWN, "data_parallel_device_ids", [1, 3], "indices"), row(CPU3, "data_parallel_device_ids", None, "cpu"),
    row(TPU8, "tpu_cores", 8, "8 cores"), row(TPU_CORE, "tpu_cores", [5], "one core index"), row(GPU2, "tpu_cores", None, "gpu"),
    row(TPU_CORE, "tpu_id", 5, "core index"), row(TPU8, "tpu_id", None, "8 cores"),
    row(IPU4, "ipus", 4, "ipu"), row(GPU2, "ipus", 0, "0 off the IPU"),
    row(CPU3, "num_processes", 3, "cpu processes"), row(GPU2, "num_processes", 2, "ddp gpus"),
    row(DP, "num_processes", 1, "dp is one process"), row(DDP2, "num_processes", 3, "ddp2: one per node"), row(CPU1, "num_processes", 1, "one cpu"),
    row(GPU2, "devices", 2, "gpus"), row(CPU3, "devices", 3, "cpus"),
    row(GPU2, "distributed_backend", "ddp", "ddp"), row(CPU1, "distributed_backend", None, "single device"),
    row(GPU2_SPAWN, "_distrib_type", "ddp_spawn", "enum member"), row(CPU1, "_distrib_type", None, "single device"),
    row(GPU2, "_device_type", "GPU", "enum member compares case-insensitively"), row(TPU8, "_device_type", "tpu", "tpu"),
    row(AMP16, "use_amp", True, "precision 16"), row(CPU1, "use_amp", False, "precision 32"),
    row(AMP16, "amp_backend", "native", "native default"), row(CPU1, "amp_level", None, "no apex"),
    row(GPU2, "should_rank_save_checkpoint", True, "rank 0"),
]
# fmt: on


def _connector(machine: Any, flags: dict[str, Any], hw: dict[str, Any]) -> compat.AcceleratorConnector:
    machine(**hw)
    return compat.AcceleratorConnector(**flags)


@pytest.mark.parametrize(("flags", "hw", "name", "expected"), ROWS)
def test_property(machine: Any, flags: dict[str, Any], hw: dict[str, Any], name: str, expected: Any) -> None:
    connector = _connector(machine, flags, hw)
    with pytest.warns(compat.CompatDeprecationWarning) as record:
        value = getattr(connector, name)
    assert value == expected and (expected is not None or value is None)
    assert len(record) == 1
    message = str(record[0].message)
    assert message.startswith(
        f"`AcceleratorConnector.{name}` is deprecated as of Lightning {PROPERTIES[name].deprecated_in}"
    )
    assert record[0].filename == __file__
    if PROPERTIES[name].new:
        assert f"Use `connector.{PROPERTIES[name].new}` instead." in message


#: The properties the issue asks for, beyond the rows above (tested by the dedicated tests below).
SPECIAL = {"training_type_plugin", "amp_backend", "amp_level"}


def test_every_old_property_is_implemented_tested_and_has_a_row() -> None:
    from compat.properties import LegacyProperties

    implemented = {name for name, value in vars(LegacyProperties).items() if isinstance(value, property)}
    tested = {p.values[2] for p in ROWS} | SPECIAL
    assert implemented == tested
    assert implemented <= set(PROPERTIES), "every property needs a row (renames table or compat's local fallback)"


def test_training_type_plugin_is_the_strategy(machine: Any) -> None:
    connector = _connector(machine, *GPU2)
    with pytest.warns(compat.CompatDeprecationWarning, match=r"Use `connector.strategy` instead") as record:
        assert connector.training_type_plugin is connector.strategy
        assert connector.accelerator.training_type_plugin is connector.strategy  # type: ignore[attr-defined]
    assert [str(w.message).split(" is ")[0] for w in record] == [
        "`AcceleratorConnector.training_type_plugin`",
        "`AcceleratorConnector.accelerator.training_type_plugin`",
    ]
    # The accelerator is still newcore's, by name, type check and identity.
    assert type(connector.accelerator).__name__ == "CUDAAccelerator"
    assert connector.accelerator is connector.strategy.accelerator


def test_the_accelerators_precision_plugin_is_the_strategys(machine: Any) -> None:
    connector = _connector(machine, *GPU2)
    with pytest.warns(compat.CompatDeprecationWarning, match=r"Use `connector.precision_plugin` instead"):
        assert connector.accelerator.precision_plugin is connector.strategy.precision_plugin  # type: ignore[attr-defined]


def test_amp_properties_with_apex(machine: Any) -> None:
    machine(cuda=1, packages={"apex"})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", compat.CompatDeprecationWarning)
        connector = compat.AcceleratorConnector(gpus=1, precision=16, amp_backend="apex", amp_level="O3")
    with pytest.warns(compat.CompatDeprecationWarning):
        assert (connector.amp_backend, connector.amp_level, connector.use_amp) == ("apex", "O3", True)


def test_raw_gpus_flag_is_returned(machine: Any) -> None:
    machine(cuda=4)
    with pytest.warns(compat.CompatDeprecationWarning):
        connector = compat.AcceleratorConnector(gpus="0,1")
        assert connector.gpus == "0,1"


def test_properties_warn_on_rank_zero_only(machine: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    connector = _connector(machine, *GPU2)
    monkeypatch.setenv("LOCAL_RANK", "1")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert connector.num_gpus == 2
