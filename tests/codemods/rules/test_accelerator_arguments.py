"""Rule ``accelerator_arguments`` (deprecated in 1.6): 1.5's ``Accelerator(precision_plugin=...,
training_type_plugin=...)`` gets a TODO, since 1.6's accelerators take no arguments.

Its own rows; the fixture cases that show it run in tests/codemods/test_fixtures.py.
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_todo, check_transformed, exercised, run

RULE = "accelerator_arguments"
_I = "from pytorch_lightning.accelerators import GPUAccelerator\n"
_MOVED = (
    "# TODO(migrate-trainer): CUDAAccelerator(precision_plugin=..., training_type_plugin=...) is gone in 1.6: an "
    "Accelerator takes no arguments, the strategy holds it (pass strategy=YourStrategy(accelerator="
    "CUDAAccelerator(), precision_plugin=...), and reach it as trainer.strategy.accelerator) [accelerator_arguments]\n"
)

TRANSFORMED = [
    pytest.param(
        _I + "acc = GPUAccelerator(precision_plugin=p, training_type_plugin=self)\n",
        "from pytorch_lightning.accelerators import CUDAAccelerator\n"
        + _MOVED
        + "acc = CUDAAccelerator(precision_plugin=p, training_type_plugin=self)\n",
        "2.0",
        id="Lightning's accelerator, renamed and flagged",
    ),
    pytest.param(
        "class Acc:\n    pass\n\nx = Acc(training_type_plugin=1)\ny = GPUAccelerator()\n",
        "class Acc:\n    pass\n\nx = Acc(training_type_plugin=1)\ny = GPUAccelerator()\n",
        "2.0",
        id="neither an Accelerator name nor the 1.5 keyword: untouched",
    ),
    pytest.param(
        _I + "acc = GPUAccelerator(precision_plugin=p, training_type_plugin=self)\n",
        _I + "acc = GPUAccelerator(precision_plugin=p, training_type_plugin=self)\n",
        "1.5",
        id="still valid at 1.5",
    ),
]


@pytest.mark.parametrize(("before", "after", "target"), TRANSFORMED)
def test_transformed(before: str, after: str, target: str) -> None:
    check_transformed(before, after, target)


def test_a_project_subclass_built_the_1_5_way() -> None:
    source = (
        "import pytorch_lightning as pl\n\n\ndef setup(self):\n    from mypkg.util import DelayedGPUAccelerator\n\n"
        "    new = DelayedGPUAccelerator(\n        precision_plugin=p, training_type_plugin=self)\n"
    )
    check_todo(source, "2.6", RULE)
    assert [f.line for f in run(source, "2.6").findings if f.rule == RULE] == [7]


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
