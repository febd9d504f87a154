"""Rule ``legacy_fallbacks`` (deprecated in 1.6): 1.5's silent accelerator/strategy/precision choices are spelled out so 1.6+ selects the same.

Its own rows; the fixture cases that show it run in tests/codemods/test_fixtures.py, the flag rules' rows
in tests/codemods/test_selection_policy.py.
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_noop, check_transformed, exercised, run

RULE = "legacy_fallbacks"


# --- Lightning 1.5's silent choices (legacy_fallbacks, device_flags, amp_flags), checked at target 1.9 --------
_T = "from pytorch_lightning import Trainer\n"
_DOUBLE = "from pytorch_lightning.plugins import DoublePrecisionPlugin\n"
_APEX = "from pytorch_lightning.plugins import ApexMixedPrecisionPlugin\n"

FALLBACK_NOOP = [
    pytest.param(_T + "Trainer(strategy='ddp', accelerator='cpu')\n", id="ddp with the user's own CPU accelerator ran"),
    pytest.param(_T + "Trainer(accelerator='auto', devices=2)\n", id="auto with a count detected devices in 1.5"),
    pytest.param(_T + "Trainer(strategy='ddp', **kwargs)\n", id="flags we cannot see may name devices"),
    pytest.param(_T + "Trainer(accelerator='gpu', devices=2, strategy='ddp', num_nodes=2)\n", id="ddp across nodes"),
    pytest.param(_T + "Trainer(accelerator='auto', devices=1)\n", id="auto, 1 device: a TPU host spawned (reported)"),
    pytest.param(
        _T + _DOUBLE + "Trainer(plugins=[DoublePrecisionPlugin()], precision=64)\n", id="plugin and precision agree"
    ),
    pytest.param(
        _T + _APEX + "Trainer(plugins=[ApexMixedPrecisionPlugin('O2')], accelerator='gpu', devices=2)\n",
        id="ApexMixedPrecisionPlugin still works on 1.9",
    ),
]


@pytest.mark.parametrize("source", FALLBACK_NOOP)
def test_fallback_noop(source: str) -> None:
    check_noop(source, "1.9")


FALLBACKS = [
    pytest.param("Trainer(accelerator='auto')\n", "Trainer(accelerator='cpu')\n", id="auto without devices ran on CPU"),
    pytest.param(
        "Trainer(accelerator='auto', devices=None)\n", "Trainer(accelerator='cpu')\n", id="auto with devices=None"
    ),
    pytest.param("Trainer(strategy='ddp')\n", "Trainer()\n", id="ddp for one CPU process had no effect: dropped"),
    pytest.param(
        "Trainer(strategy='dp', num_processes=2)\n",
        "Trainer(strategy='ddp', accelerator='cpu', devices=2)\n",
        id="dp on several CPU processes ran as ddp",
    ),
    pytest.param(
        "Trainer(strategy='ddp', tpu_cores=8)\n",
        "Trainer(accelerator='tpu', devices=8)\n",
        id="ddp next to TPU cores was ignored",
    ),
    pytest.param(
        "Trainer(tpu_cores=1)\n",
        'Trainer(accelerator="tpu", devices=1)\n',
        id="tpu_cores=1 spawned one process: the launcher is the target's (reported)",
    ),
    pytest.param(
        "Trainer(gpus=2, num_nodes=2)\n",
        'Trainer(accelerator="gpu", devices=2, num_nodes=2)\n',
        id="several GPUs on several nodes ran ddp_spawn: the launcher is the target's (reported)",
    ),
    pytest.param(
        "Trainer(num_processes=1, devices=2, accelerator='cpu')\n",
        "Trainer(devices=2, accelerator='cpu')\n",
        id="num_processes=1 was the default and left devices alone",
    ),
    pytest.param(
        "Trainer(tpu_cores=8, ipus=4)\n", 'Trainer(accelerator="tpu", devices=8)\n', id="tpu_cores counts its own cores"
    ),
    pytest.param(
        _DOUBLE + "Trainer(plugins=[DoublePrecisionPlugin()], precision=16)\n",
        _DOUBLE + "Trainer(plugins=[DoublePrecisionPlugin()])\n",
        id="the precision plugin won over precision=",
    ),
    pytest.param(
        "Trainer(precision='mixed', gpus=2, strategy='deepspeed')\n",
        "Trainer(precision=16, accelerator='gpu', devices=2, strategy='deepspeed')\n",
        id="mixed was float16 for DeepSpeed",
    ),
    pytest.param(
        "from pytorch_lightning.accelerators import GPUAccelerator\nTrainer(accelerator=GPUAccelerator(), gpus=2)\n",
        "from pytorch_lightning.accelerators import CUDAAccelerator\nTrainer(accelerator=CUDAAccelerator(), devices=2)\n",
        id="an accelerator object is an accelerator",
    ),
    pytest.param(
        "Trainer(amp_backend='APEX', precision=16, gpus=1)\n",
        _APEX + "\nTrainer(plugins=[ApexMixedPrecisionPlugin()], precision=16, accelerator='gpu', devices=1)\n",
        id="amp_backend is read case-insensitively and amp_level=None is not written",
    ),
    pytest.param(
        "Trainer(amp_backend='apex', amp_level='O1', precision=32)\n",
        "Trainer(precision=32)\n",
        id="apex only ran for precision 16",
    ),
    pytest.param(
        "Trainer(amp_backend='apex', precision=16, tpu_cores=8)\n",
        "Trainer(precision=16, accelerator='tpu', devices=8)\n",
        id="TPUs never used apex",
    ),
]


@pytest.mark.parametrize(("before", "after"), FALLBACKS)
def test_fallback_transformed(before: str, after: str) -> None:
    check_transformed(_T + before, _T + after, "1.9")


FALLBACK_TODO = [
    pytest.param("Trainer(accelerator='gpu', devices=1, num_nodes=2)\n", "legacy_fallbacks", id="1 GPU, 2 nodes"),
    pytest.param("Trainer(accelerator='gpu', devices=2, strategy='dp', num_nodes=2)\n", "legacy_fallbacks", id="dp"),
    pytest.param(
        "Trainer(strategy='deepspeed', amp_backend='apex', precision=16, accelerator='gpu', devices=2)\n",
        "amp_flags",
        id="DeepSpeed took apex in its own config",
    ),
]


@pytest.mark.parametrize(("source", "rule"), FALLBACK_TODO)
def test_fallback_todo(source: str, rule: str) -> None:
    outcome = run(_T + source, "1.9")
    assert f"[{rule}]" in outcome.source and outcome.source.endswith(source)
    assert run(outcome.source, "1.9").source == outcome.source


# Below target 1.7 the old device flags stay; where Lightning 1.6 selects differently for them, a TODO says so.
OLD_DEVICE_FLAGS_AT_16_NOOP = [
    pytest.param("Trainer(gpus=2)\n", id="several GPUs, one node: ddp_spawn in 1.5 and 1.6"),
    pytest.param("Trainer(tpu_cores=8)\n", id="8 TPU cores spawn in both"),
    pytest.param("Trainer(num_processes=2, strategy='dp')\n", id="dp on CPU ran as ddp in 1.5 and 1.6 alike"),
    pytest.param("Trainer(gpus=args.gpus, num_nodes=2)\n", id="non-literal: device_flags' business at 1.7"),
    pytest.param("Trainer(tpu_cores=1)\n", id="tpu_cores=1: spawn in 1.5, in place in 1.6 (reported)"),
    pytest.param("Trainer(gpus=2, num_nodes=2)\n", id="GPUs x nodes: ddp_spawn in 1.5, ddp in 1.6 (reported)"),
]

OLD_DEVICE_FLAGS_AT_16_TODO = [
    pytest.param("Trainer(gpus=1, num_nodes=2)\n", "refused", id="1 GPU x 2 nodes: error in 1.5, ddp in 1.6"),
]


@pytest.mark.parametrize("source", OLD_DEVICE_FLAGS_AT_16_NOOP)
def test_old_device_flags_at_16_noop(source: str) -> None:
    check_noop(_T + source, "1.6")


@pytest.mark.parametrize(("source", "words"), OLD_DEVICE_FLAGS_AT_16_TODO)
def test_old_device_flags_at_16_todo(source: str, words: str) -> None:
    outcome = run(_T + source, "1.6")
    assert outcome.source.endswith(source), "the call itself stays"
    todo = next(line for line in outcome.source.splitlines() if "TODO(migrate-trainer)" in line)
    assert "Lightning 1.6 selects differently" in todo and words in todo and "[legacy_fallbacks]" in todo
    assert run(outcome.source, "1.6").source == outcome.source, "a second run changes nothing"


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)


def test_the_tpu_debug_strategy_is_kept_next_to_tpus() -> None:
    # 1.5.10 took the registry's TPUSpawnPlugin(debug=True) as it was; 2.6.6 registers it as "xla_debug".
    check_transformed(
        _T + "Trainer(tpu_cores=8, strategy='tpu_spawn_debug')\n",
        _T + "Trainer(accelerator='tpu', devices=8, strategy='xla_debug')\n",
        "2.6",
    )
