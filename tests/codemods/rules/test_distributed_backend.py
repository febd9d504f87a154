"""Rule ``distributed_backend`` (deprecated in 1.4): distributed_backend= (removed in 1.5) becomes strategy=, with its 1.4 meaning.

Its own rows; the fixture cases that show it run in tests/codemods/test_fixtures.py, the flag rules' rows
in tests/codemods/test_selection_policy.py.
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_transformed, exercised

RULE = "distributed_backend"


TRANSFORMED = [
    pytest.param(
        "from pytorch_lightning import Trainer\nTrainer(distributed_backend='ddp', gpus=2)\n",
        "from pytorch_lightning import Trainer\nTrainer(strategy='ddp', accelerator='gpu', devices=2)\n",
        "1.7",
        id="distributed_backend keeps its 1.4 meaning",
    ),
]


@pytest.mark.parametrize(("before", "after", "target"), TRANSFORMED)
def test_transformed(before: str, after: str, target: str) -> None:
    check_transformed(before, after, target)


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
