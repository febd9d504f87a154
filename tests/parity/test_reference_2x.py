"""The recorded real Lightning 2.6.6 data (``tests/data/lightning-2.6.6.json``) and the ``--cases-json`` input format.

CI has no Lightning: these tests only read the committed JSON and the stdlib-only parser of
``tools/reference/extra_cases.py``. The rows below are what real 2.6.6 selected, read from the data.
"""

from __future__ import annotations

import importlib
import json
import sys
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
TOOLS = ROOT / "tools" / "reference"


@cache
def _load(version: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / f"lightning-{version}.json").read_text(encoding="utf-8"))
    return data


@cache
def _extra_cases() -> ModuleType:
    if str(TOOLS) not in sys.path:
        sys.path.insert(0, str(TOOLS))  # the tools are scripts next to each other, not a package
    return importlib.import_module("extra_cases")


def test_header_names_the_release_and_counts_its_results() -> None:
    header, results = _load("2.6.6")["header"], _load("2.6.6")["results"]
    assert header["lightning_version"] == "2.6.6"
    assert header["torch_version"].startswith("2.13.0")
    assert "pytorch-lightning==2.6.6" in header["pins"]["install_no_deps"]
    assert header["pins"]["constraint"] == ["torch==2.13.0"]
    assert header["case_count"] == len(results)
    counts: dict[str, int] = {}
    for result in results.values():
        counts[result["outcome"]] = counts.get(result["outcome"], 0) + 1
    assert header["outcome_counts"] == counts


def test_every_recorded_1_5_case_is_recorded_on_2_6_with_the_same_inputs() -> None:
    old, new = _load("1.5.10")["results"], _load("2.6.6")["results"]
    assert sorted(new) == sorted(old)
    assert [case_id for case_id in old if old[case_id]["case"] != new[case_id]["case"]] == []


def test_every_result_has_the_fields_of_its_outcome() -> None:
    for case_id, result in _load("2.6.6")["results"].items():
        outcome = result["outcome"]
        assert outcome in {"ok", "error", "unavailable"}, case_id
        if outcome == "ok":
            assert {"strategy", "accelerator", "precision_plugin", "trainer"} <= set(result["selected"]), case_id
        elif outcome == "error":
            assert set(result["error"]) == {"type", "message"}, case_id
        else:
            assert result["reason"].endswith("does not exist in this release"), case_id


def test_the_file_is_sorted_one_line_per_case() -> None:
    lines = (DATA / "lightning-2.6.6.json").read_text(encoding="utf-8").splitlines()
    start = lines.index('"results": {') + 1
    ids = [json.loads(line.split('": {', 1)[0] + '"') for line in lines[start:-2]]
    assert ids == sorted(_load("2.6.6")["results"])


SELECTED = [
    pytest.param(
        "devices: accelerator='gpu', devices=2 | cuda=4",
        {
            "strategy": "DDPStrategy",
            "accelerator": "CUDAAccelerator",
            "precision_plugin": "Precision",
            "precision_plugin_precision": "32-true",
            "launcher": "_SubprocessScriptLauncher",
            "strategy_start_method": "popen",
            "find_unused_parameters": "<unset>",
            "parallel_devices": ["cuda:0", "cuda:1"],
            "cluster_environment": "LightningEnvironment",
        },
        id="accelerator=gpu, devices=2 on 4 GPUs: DDP through a subprocess script launcher",
    ),
    pytest.param(
        "defaults: (no flags) | cuda=4",
        {"strategy": "DDPStrategy", "parallel_devices": ["cuda:0", "cuda:1", "cuda:2", "cuda:3"]},
        id="no flags on 4 GPUs: DDP over all of them (auto devices)",
    ),
    pytest.param(
        "strategy: strategy='ddp_spawn' | cpu",
        {"strategy": "DDPStrategy", "launcher": "_MultiProcessingLauncher", "launcher_start_method": "spawn"},
        id="ddp_spawn is DDPStrategy with a spawning launcher",
    ),
    pytest.param(
        "strategy: strategy='ddp_notebook' | cpu",
        {"strategy": "DDPStrategy", "launcher": "_MultiProcessingLauncher", "launcher_start_method": "fork"},
        id="ddp_notebook forks",
    ),
    pytest.param(
        "precision: precision=16 | cpu",
        {"precision_plugin": "MixedPrecision", "precision_plugin_precision": "bf16-mixed"},
        id="precision=16 on CPU becomes bf16-mixed",
    ),
    pytest.param(
        "precision: precision=64 | cpu",
        {"precision_plugin": "DoublePrecision", "precision_plugin_precision": "64-true"},
        id="precision=64 is DoublePrecision",
    ),
    pytest.param(
        "defaults: (no flags) | cpu+tpu",
        {
            "strategy": "XLAStrategy",
            "accelerator": "XLAAccelerator",
            "precision_plugin": "XLAPrecision",
            "launcher": "_XLALauncher",
            "cluster_environment": "XLAEnvironment",
        },
        id="an 8-core TPU host picks XLA",
    ),
    pytest.param(
        "devices: accelerator='tpu', devices=1 | cpu+tpu",
        {"strategy": "SingleDeviceXLAStrategy"},
        id="one TPU core: single-device XLA",
    ),
    pytest.param(
        "interactive: accelerator='tpu' | cpu+tpu | interactive",
        {"strategy": "XLAStrategy", "launcher": "_XLALauncher", "launcher_is_interactive_compatible": True},
        id="an interactive TPU run is allowed: the XLA launcher is interactive-compatible",
    ),
    pytest.param(
        "strategy_devices: strategy='deepspeed', accelerator='gpu', devices=2 | cuda=4+deepspeed+horovod(local_size=2)",
        {"strategy": "DeepSpeedStrategy", "precision_plugin": "DeepSpeedPrecision", "deepspeed_zero_stage": 2},
        id="deepspeed defaults to ZeRO stage 2",
    ),
]


@pytest.mark.parametrize(("case_id", "expected"), SELECTED)
def test_what_2_6_6_selected(case_id: str, expected: dict[str, Any]) -> None:
    result = _load("2.6.6")["results"][case_id]
    assert result["outcome"] == "ok"
    assert {key: result["selected"].get(key) for key in expected} == expected


FAILED = [
    pytest.param("gpus: gpus=2 | cuda=4", "TypeError", "unexpected keyword argument 'gpus'", id="gpus= is gone"),
    pytest.param(
        "accelerator: accelerator='ipu' | cpu+ipu", "ValueError", "invalid accelerator name", id="ipu left core"
    ),
    pytest.param(
        "num_nodes: num_nodes=2, strategy='horovod' | cpu", "ValueError", "invalid strategy name", id="horovod gone"
    ),
    pytest.param(
        "strategy: strategy='deepspeed' | cpu", "MisconfigurationException", "DeepSpeed installed", id="no deepspeed"
    ),
]


@pytest.mark.parametrize(("case_id", "error_type", "fragment"), FAILED)
def test_what_2_6_6_refused(case_id: str, error_type: str, fragment: str) -> None:
    result = _load("2.6.6")["results"][case_id]
    assert result["outcome"] == "error"
    assert result["error"]["type"] == error_type
    assert fragment in result["error"]["message"]


def test_a_class_2_x_does_not_have_is_unavailable() -> None:
    result = _load("2.6.6")["results"]["accelerator_as_strategy: accelerator=DDPPlugin(), gpus=2 | cuda=4"]
    assert (result["outcome"], result["reason"]) == ("unavailable", "class 'DDPPlugin' does not exist in this release")


# ----------------------------------------------------------------------------------------------
# --cases-json input (tools/reference/extra_cases.py)
# ----------------------------------------------------------------------------------------------


def test_a_cases_file_is_normalised_and_keeps_the_producers_keys() -> None:
    parse = _extra_cases().parse
    cases, left_out = parse(
        {
            "b": {"kwargs": {"accelerator": "gpu", "devices": 2}, "hardware": {"cuda": 4}, "source": "Trainer()"},
            "a": {"kwargs": {"strategy": {"__class__": "DDPStrategy"}}, "env": {"RANK": "0"}, "interactive": True},
            "c": {"unencodable": "make_plugin()"},
        }
    )
    assert [case.id for case in cases] == ["a", "b"]
    assert left_out == {"c": "unencodable: make_plugin()"}
    assert cases[0].hardware == _load("1.5.10")["results"]["defaults: (no flags) | cpu"]["case"]["hardware"]
    assert cases[1].as_dict() == {
        "source": "Trainer()",
        "kwargs": {"accelerator": "gpu", "devices": 2},
        "hardware": {**cases[0].hardware, "cuda": 4},
        "env": {},
        "interactive": False,
    }
    assert cases[0].env == {"RANK": "0"} and cases[0].interactive is True


@pytest.mark.parametrize(
    ("data", "message"),
    [
        pytest.param([], "one JSON object", id="not an object"),
        pytest.param({"x": {}}, "'kwargs' is required", id="no kwargs"),
        pytest.param({"x": {"kwargs": []}}, "'kwargs' must be an object", id="kwargs a list"),
        pytest.param({"x": {"kwargs": {}, "hardware": {"gpu": 2}}}, "bad 'hardware'", id="unknown hardware key"),
        pytest.param({"x": {"kwargs": {}, "env": {"RANK": 0}}}, "string values", id="env value not a string"),
        pytest.param({"x": {"kwargs": {}, "interactive": "yes"}}, "true or false", id="interactive not a bool"),
    ],
)
def test_a_bad_cases_file_is_refused_with_the_case_named(data: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        _extra_cases().parse(data)
