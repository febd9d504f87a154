"""Rule ``ipu_accelerator`` (deprecated in 2.1): accelerator='ipu' gets a TODO from 2.1 (IPUs moved to lightning-graphcore).

Its own rows, each pinned on a case recorded from real Lightning (tests/data/lightning-*.json) where one exists;
the fixture cases that show it run in tests/codemods/test_fixtures.py.
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_transformed, exercised

RULE = "ipu_accelerator"
_T = "from pytorch_lightning import Trainer\n"

TRANSFORMED = [
    pytest.param(
        _T + "Trainer(accelerator='ipu', devices=4)\n",
        _T
        + "# TODO(migrate-trainer): IPU support left Lightning in 2.1: `pip install lightning-graphcore` and pass its IPUAccelerator()/IPUStrategy() objects [ipu_accelerator]\nTrainer(accelerator='ipu', devices=4)\n",
        "2.6",
        id="accelerator='ipu'",
    ),
    pytest.param(
        _T + "Trainer(accelerator='ipu', devices=4)\n",
        _T + "Trainer(accelerator='ipu', devices=4)\n",
        "2.0",
        id="2.0 still has IPUs",
    ),
]


@pytest.mark.parametrize(("before", "after", "target"), TRANSFORMED)
def test_transformed(before: str, after: str, target: str) -> None:
    check_transformed(before, after, target)


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
