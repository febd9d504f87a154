"""Rule ``accelerator_strategy`` (deprecated in 1.5): a strategy name or object passed as accelerator= moves to strategy=.

Its own rows; the fixture cases that show it run in tests/codemods/test_fixtures.py, the flag rules' rows
in tests/codemods/test_selection_policy.py.
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_transformed, exercised

RULE = "accelerator_strategy"


TRANSFORMED = [
    pytest.param(
        "from pytorch_lightning import Trainer\nTrainer(accelerator='ddp', gpus=2)\n",
        "from pytorch_lightning import Trainer\nTrainer(strategy='ddp', gpus=2)\n",
        "1.6",
        id="strategy name in accelerator=",
    ),
]


@pytest.mark.parametrize(("before", "after", "target"), TRANSFORMED)
def test_transformed(before: str, after: str, target: str) -> None:
    check_transformed(before, after, target)


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
