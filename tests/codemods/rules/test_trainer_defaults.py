"""Rule ``trainer_defaults`` (deprecated in 2.0): 2.0 default accelerator/devices/strategy changes are flagged or reported; LightningCLI's trainer_defaults are migrated as flags.

Its own rows; the fixture cases that show it run in tests/codemods/test_fixtures.py, the flag rules' rows
in tests/codemods/test_selection_policy.py.
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_todo, check_transformed, exercised

RULE = "trainer_defaults"


# Flags that act on every device 2.0 finds, and did nothing on 1.x's one CPU device, keep that device.
KEEPS_ONE_CPU = [
    pytest.param("Trainer(num_nodes=2)", 'Trainer(num_nodes=2, accelerator="cpu", devices=1)', id="nodes"),
    pytest.param(
        "Trainer(sync_batchnorm=True)", 'Trainer(sync_batchnorm=True, accelerator="cpu", devices=1)', id="sync"
    ),
    pytest.param(
        "Trainer(strategy=RayStrategy(num_workers=2))",
        'Trainer(strategy=RayStrategy(num_workers=2), accelerator="cpu", devices=1)',
        id="a strategy object built in the call",
    ),
]

_HEAD = "from pytorch_lightning import Trainer\n"


# devices=None chose nothing in 1.5 (it was read only next to an accelerator, and None next to "cpu" ran one
# process); 2.6.6 raises "`devices` selected with `CPUAccelerator` should be an int > 0" for it.
DEVICES_NONE = [
    pytest.param("Trainer(devices=None, max_epochs=1)", "Trainer(max_epochs=1)", id="alone: the default"),
    pytest.param("Trainer(accelerator=None, devices=None)", 'Trainer(accelerator="cpu")', id="next to the CPU None meant"),
]


@pytest.mark.parametrize(("before", "after"), DEVICES_NONE)
def test_devices_none_is_dropped(before: str, after: str) -> None:
    check_transformed(_HEAD + before + "\n", _HEAD + after + "\n", "2.0")


def test_devices_none_in_a_config_section_is_dropped() -> None:
    from tests.codemods.helpers import run

    section = "trainer:\n  gpus: null\n  accelerator: null\n  devices: null\n  max_epochs: 1\n"
    assert run(section, "2.6", yaml=True).source == "trainer:\n  accelerator: cpu\n  max_epochs: 1\n"


@pytest.mark.parametrize(("before", "after"), KEEPS_ONE_CPU)
def test_flags_that_act_on_every_device_keep_one_cpu(before: str, after: str) -> None:
    check_transformed(_HEAD + before + "\n", _HEAD + after + "\n", "2.0")


# Where the flags may select a TPU, or come from a config or a command line, only the TODO says it.
TODO = [
    pytest.param(_HEAD + "Trainer(strategy=name)\n", "2.0", "trainer_defaults", id="a strategy held by a name"),
    pytest.param(_HEAD + "Trainer(strategy=TPUSpawnStrategy())\n", "2.0", "trainer_defaults", id="a TPU strategy"),
    pytest.param(_HEAD + "Trainer(num_gpus=8, num_nodes=4)\n", "2.0", "trainer_defaults", id="a name no Trainer takes"),
    pytest.param(_HEAD + "Trainer(num_nodes=0)\n", "2.0", "trainer_defaults", id="no node count: 2.x refuses it"),
]


@pytest.mark.parametrize(("source", "target", "rule"), TODO)
def test_todo_leaves_code_and_says_why(source: str, target: str, rule: str) -> None:
    check_todo(source, target, rule)


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)


@pytest.mark.parametrize(
    ("interactive", "default"),
    [
        pytest.param(False, '2.0\'s default is "ddp" with', id="a script: ddp"),
        # 2.6.6 records DDPStrategy with start_method "fork" for ``interactive: strategy=None, gpus=2``.
        pytest.param(True, '2.0\'s default is "ddp_notebook" (forked from the notebook) with', id="a notebook"),
    ],
)
def test_the_launcher_report_names_the_targets_default(interactive: bool, default: str) -> None:
    from codemods.frontends.python import transform_python
    from codemods.model import Options

    outcome = transform_python(_HEAD + "Trainer(gpus=2)\n", Options(target="2.6", interactive=interactive))
    reports = [f.message for f in outcome.findings if f.rule == RULE and "ddp_spawn" in f.message]
    assert len(reports) == 1 and default in reports[0], reports
