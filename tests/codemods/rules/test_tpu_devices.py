"""Rule ``tpu_devices`` (deprecated in 1.6): a TPU core string becomes a one-index list.

Rows pinned on cases recorded from real Lightning 1.5.10 (tests/data/lightning-1.5.10.json); the fixture
py_real_target_2x shows the rule end to end.
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_transformed, exercised

RULE = "tpu_devices"
_T = "from pytorch_lightning import Trainer\n"

TRANSFORMED = [
    pytest.param(
        _T + "Trainer(accelerator='tpu', devices='2')\n",
        _T + "Trainer(accelerator='tpu', devices=[2])\n",
        "2.6",
        id="core 2",
    ),
    pytest.param(
        _T + "Trainer(accelerator='tpu', devices='8')\n",
        _T + "Trainer(accelerator='tpu', devices='8')\n",
        "2.6",
        id="eight cores",
    ),
    pytest.param(
        _T + "Trainer(accelerator='gpu', devices='2')\n",
        _T + "Trainer(accelerator='gpu', devices='2')\n",
        "2.6",
        id="GPUs: a count",
    ),
    pytest.param(
        _T + "Trainer(accelerator='auto', devices='2')\n",
        _T
        + "# TODO(migrate-trainer): accelerator=\"auto\" with devices='2': a TPU host ran core 2 in 1.5 (2.x: "
        + 'accelerator="tpu", devices=[2]), any other host 2 devices (devices=2): choose one [tpu_devices]\n'
        + "Trainer(accelerator='auto', devices='2')\n",
        "2.6",
        id="auto: core 2 on a TPU host, two GPUs elsewhere",
    ),
]


@pytest.mark.parametrize(("before", "after", "target"), TRANSFORMED)
def test_transformed(before: str, after: str, target: str) -> None:
    check_transformed(before, after, target)


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
