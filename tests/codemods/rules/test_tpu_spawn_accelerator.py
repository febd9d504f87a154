"""Rule ``tpu_spawn_accelerator`` (deprecated in 1.5): accelerator='tpu_spawn' becomes strategy='tpu_spawn' with TPU cores, strategy='ddp' without.

Rows pinned on cases recorded from real Lightning 1.5.10 (tests/data/lightning-1.5.10.json); the fixture
py_real_target_2x shows the rule end to end.
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_transformed, exercised

RULE = "tpu_spawn_accelerator"
_T = "from pytorch_lightning import Trainer\n"

TRANSFORMED = [
    pytest.param(
        _T + "Trainer(accelerator='tpu_spawn')\n",
        _T + "Trainer(strategy='ddp', accelerator='cpu')\n",
        "2.6",
        id="alone: DDP in one CPU process",
    ),
    pytest.param(
        _T + "Trainer(accelerator='tpu_spawn', gpus=2)\n",
        _T + "Trainer(strategy='ddp', accelerator='gpu', devices=2)\n",
        "2.6",
        id="with GPUs: DDP",
    ),
    pytest.param(
        _T + "Trainer(accelerator='tpu_spawn', num_processes=2)\n",
        _T + "Trainer(strategy='ddp', accelerator='cpu', devices=2)\n",
        "2.6",
        id="CPU processes: DDP",
    ),
    pytest.param(
        _T + "Trainer(accelerator='tpu_spawn', tpu_cores=8)\n",
        _T + "Trainer(accelerator='tpu', devices=8)\n",
        "2.6",
        id="TPU cores: its own strategy",
    ),
]


@pytest.mark.parametrize(("before", "after", "target"), TRANSFORMED)
def test_transformed(before: str, after: str, target: str) -> None:
    check_transformed(before, after, target)


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
