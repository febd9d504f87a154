"""Rule ``trainer_properties`` (deprecated in 1.6): deprecated Trainer properties are replaced where the new one reads the same value (training_type_plugin); the others (num_gpus, root_gpu, ...) get a TODO naming the expression that does.

Its own rows; the fixture cases that show it run in tests/codemods/test_fixtures.py, the flag rules' rows
in tests/codemods/test_selection_policy.py.
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_todo, check_transformed, exercised, run

RULE = "trainer_properties"


TRANSFORMED = [
    pytest.param(
        "def f(trainer):\n    return trainer.training_type_plugin, trainer.accelerator.training_type_plugin\n",
        "def f(trainer):\n    return trainer.strategy, trainer.strategy\n",
        "1.6",
        id="trainer properties",
    ),
    pytest.param(
        "def f(trainer, m):\n    trainer.accelerator.connect(m)\n    trainer.accelerator.barrier('x')\n",
        "def f(trainer, m):\n    trainer.strategy.connect(m)\n    trainer.strategy.barrier('x')\n",
        "1.6",
        id="1.5's Accelerator pass-throughs are the strategy's methods",
    ),
    pytest.param(
        "def f(self):\n    return self.trainer._accelerator_connector.training_type_plugin\n",
        "def f(self):\n    return self.trainer.strategy\n",
        "2.0",
        id="the connector's training_type_plugin is the strategy",
    ),
    pytest.param(
        "def f(trainer):\n    return trainer.accelerator.precision_plugin.precision\n",
        "def f(trainer):\n    return trainer.precision_plugin.precision\n",
        "2.6",
        id="1.5's accelerator.precision_plugin is the Trainer's (the strategy's since 1.6)",
    ),
]


@pytest.mark.parametrize(("before", "after", "target"), TRANSFORMED)
def test_transformed(before: str, after: str, target: str) -> None:
    check_transformed(before, after, target)


TODO = [
    pytest.param("def f(trainer):\n    return trainer.devices\n", "2.0", "trainer_properties", id="devices"),
    pytest.param(
        "def f(trainer):\n    if trainer.tpu_cores:\n        return 8\n",
        "2.0",
        "trainer_properties",
        id="tpu_cores test",
    ),
]


@pytest.mark.parametrize(("source", "target", "rule"), TODO)
def test_todo_leaves_code_and_says_why(source: str, target: str, rule: str) -> None:
    check_todo(source, target, rule)


# Trainer properties whose 1.6+ spelling reads another value on some machines stay, with one TODO per statement
# naming the expression that reads the 1.5 value (values as the real 1.5.10 / 1.6.5 return them).
_NUM_DEVICES = "trainer.num_devices if isinstance(trainer.accelerator, "
PROPERTY_TODO = [
    pytest.param(
        "def f(self):\n    if self.trainer.tpu_cores:\n        self.n = self.trainer.tpu_cores\n",
        "2.0",
        ["self.trainer.num_devices if isinstance(self.trainer.accelerator, TPUAccelerator) else None"],
        id="tpu_cores (None off the TPU) is never num_devices (always >= 1)",
    ),
    pytest.param(
        "def f(trainer):\n    return max(1, trainer.num_gpus, trainer.num_processes)\n",
        "2.0",
        ["Trainer.num_processes is deprecated"],
        id="max(1, num_gpus, num_processes): num_gpus rewritten, num_processes is not max(1, num_devices)",
    ),
    pytest.param(
        "def f(trainer):\n    return trainer.ipus\n",
        "1.6",
        [_NUM_DEVICES + "IPUAccelerator) else 0"],
        id="ipus (0 off the IPU)",
    ),
    pytest.param(
        "def f(trainer):\n    return trainer.devices\n",
        "2.0",
        ["devices returned the device flag as given"],
        id="devices (the raw flag) has no exact replacement",
    ),
    pytest.param(
        "def f(self):\n    if self.trainer._accelerator_connector.use_gpu:\n        return 1\n",
        "2.0",
        ["isinstance(self.trainer.accelerator, CUDAAccelerator)"],
        id="the 1.5 connector's use_gpu",
    ),
    pytest.param(
        "def f(trainer):\n    return trainer._distrib_type != 'ddp_spawn'\n",
        "1.6",
        ["not isinstance(trainer.strategy, DDPSpawnStrategy)"],
        id="_distrib_type != 'ddp_spawn' at 1.6",
    ),
    pytest.param(
        "def f(trainer):\n    return trainer._device_type == 'gpu'\n",
        "1.6",
        ["isinstance(trainer.accelerator, GPUAccelerator)"],
        id="_device_type == 'gpu' at 1.6 names GPUAccelerator",
    ),
    pytest.param(
        "def f(trainer):\n    return trainer._distrib_type == 'dp'\n",
        "2.0",
        ["'dp' has no strategy class at 2.0"],
        id="_distrib_type == 'dp' at 2.0: no such strategy",
    ),
]


@pytest.mark.parametrize(("source", "target", "says"), PROPERTY_TODO)
def test_property_left_with_one_todo_naming_the_same_value(source: str, target: str, says: list[str]) -> None:
    outcome = run(source, target)
    todos = [line.strip() for line in outcome.source.splitlines() if "TODO(migrate-trainer)" in line]
    assert "num_processes" in source or outcome.source.endswith(source.split("\n", 1)[1]), "the code stays"
    assert len(todos) == len(says), todos
    for todo, words in zip(todos, says, strict=True):
        assert words in todo and todo.endswith("[trainer_properties]")
    assert run(outcome.source, target).source == outcome.source, "a second run changes nothing"


@pytest.mark.parametrize(
    "source",
    [
        pytest.param("def f(trainer):\n    return trainer._accelerator_connector.strategy\n", id="still there in 2.x"),
        pytest.param(
            "def f(trainer):\n    return trainer._accelerator_connector.is_distributed\n", id="is_distributed"
        ),
        pytest.param("def f(cfg):\n    return cfg.trainer.accelerator == 'ddp'\n", id="a config's accelerator key"),
    ],
)
def test_connector_attributes_that_2x_still_has_are_left_alone(source: str) -> None:
    outcome = run(source, "2.0")
    assert outcome.source == source
    assert not [f for f in outcome.findings if f.rule == RULE]


def test_accelerator_compared_to_a_strategy_name_gets_the_strategy_check() -> None:
    source = "import pytorch_lightning\n\ndef f(trainer):\n    if trainer.accelerator == 'ddp':\n        return 1\n"
    todos = [line for line in run(source, "2.0").source.splitlines() if "TODO(migrate-trainer)" in line]
    assert len(todos) == 1
    assert "never the string 'ddp' (the comparison is always False)" in todos[0]
    assert "use `isinstance(trainer.strategy, DDPStrategy)`" in todos[0]


@pytest.mark.parametrize(
    ("name", "says"),
    [
        pytest.param("ddp_cpu", "no one strategy class stands for 'ddp_cpu'", id="ddp_cpu (1.5.10: a CPUAccelerator)"),
        pytest.param(
            "gpu", "use `isinstance(trainer.accelerator, CUDAAccelerator)`", id="a device name: the accelerator"
        ),
    ],
)
def test_accelerator_compared_to_another_name(name: str, says: str) -> None:
    source = f"import pytorch_lightning\n\ndef f(trainer):\n    if trainer.accelerator == {name!r}:\n        return 1\n"
    todos = [line for line in run(source, "2.6").source.splitlines() if "TODO(migrate-trainer)" in line]
    assert len(todos) == 1
    assert f"never the string {name!r} (the comparison is always False)" in todos[0]
    assert says in todos[0]


def test_enum_comparison_gets_the_strategy_check() -> None:
    source = (
        "from pytorch_lightning.utilities.enums import DistributedType\n\n"
        "def f(trainer):\n    return trainer._distrib_type == DistributedType.DDP\n"
    )
    todos = [line for line in run(source, "2.0").source.splitlines() if "TODO(migrate-trainer)" in line]
    assert len(todos) == 1 and "isinstance(trainer.strategy, DDPStrategy)" in todos[0]


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)


def test_an_accelerators_training_type_plugin_is_reported() -> None:
    """1.6 took the strategy out of the Accelerator: ``accelerator.training_type_plugin`` on a variable holding one
    (ray_lightning's ``new_accelerator``) is reported, not rewritten: nothing says it is Lightning's."""
    source = "import pytorch_lightning\n\ndef f(new_accelerator):\n    return new_accelerator.training_type_plugin\n"
    outcome = run(source, "2.0")
    assert outcome.source == source
    assert [(f.rule, f.kind, f.line) for f in outcome.findings] == [(RULE, "report", 4)]
    assert "Accelerator.training_type_plugin is gone in 1.6" in outcome.findings[0].message


# 1.5's GPU properties become the expression that reads their 1.5 value at the target (MIGRATION.md, "Decisions"):
# parenthesized inside a larger expression, bare as a statement's value, a call's argument or an f-string's field.
_CUDA = "from pytorch_lightning.accelerators import CUDAAccelerator\n\n"
GPU_REWRITES = [
    pytest.param(
        "def f(trainer):\n    return trainer._accelerator_connector.num_gpus\n",
        _CUDA
        + "def f(trainer):\n    return trainer.num_devices if isinstance(trainer.accelerator, CUDAAccelerator) else 0\n",
        id="the 1.5 connector's num_gpus: Trainer.num_gpus's value",
    ),
    pytest.param(
        "def f(trainer):\n    n = trainer.num_gpus\n",
        _CUDA
        + "def f(trainer):\n    n = trainer.num_devices if isinstance(trainer.accelerator, CUDAAccelerator) else 0\n",
        id="num_gpus as an assignment's value",
    ),
    pytest.param(
        "def f(trainer):\n    if trainer.num_gpus > 1:\n        return 2\n",
        _CUDA
        + "def f(trainer):\n    if (trainer.num_devices if isinstance(trainer.accelerator, CUDAAccelerator) else 0)"
        " > 1:\n        return 2\n",
        id="num_gpus compared: parenthesized",
    ),
    pytest.param(
        "def f(self):\n    torch.cuda.set_device(self.trainer.root_gpu)\n",
        _CUDA + "def f(self):\n    torch.cuda.set_device(self.trainer.strategy.root_device.index if "
        "isinstance(self.trainer.accelerator, CUDAAccelerator) else None)\n",
        id="root_gpu as a call's argument: no parentheses",
    ),
    pytest.param(
        "def f(trainer):\n    print(f'{trainer.data_parallel_device_ids}')\n",
        _CUDA + "def f(trainer):\n    print(f'{trainer.device_ids if isinstance(trainer.accelerator, CUDAAccelerator)"
        " else None}')\n",
        id="data_parallel_device_ids in an f-string",
    ),
]


@pytest.mark.parametrize(("before", "after"), GPU_REWRITES)
def test_gpu_properties_become_the_expression_of_their_1_5_value(before: str, after: str) -> None:
    outcome = run(before, "2.0")
    assert outcome.source == after
    assert run(after, "2.0").source == after, "a second run changes nothing"


def test_a_receiver_that_runs_code_keeps_its_todo() -> None:
    outcome = run("def f(make):\n    return make().trainer.num_gpus\n", "2.0")
    assert "[trainer_properties]" in outcome.source or "trainer.num_gpus" in outcome.source
