"""Rule ``empty_names`` (deprecated in 1.6): an empty strategy=/accelerator= name is dropped.

Rows pinned on cases recorded from real Lightning 1.5.10 (tests/data/lightning-1.5.10.json); the fixture
py_real_target_2x shows the rule end to end.
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_transformed, exercised

RULE = "empty_names"
_T = "from pytorch_lightning import Trainer\n"

TRANSFORMED = [
    pytest.param(_T + "Trainer(strategy='')\n", _T + "Trainer()\n", "2.6", id="strategy=''"),
    pytest.param(
        _T + "Trainer(accelerator='', max_epochs=1)\n", _T + "Trainer(max_epochs=1)\n", "1.6", id="accelerator=''"
    ),
]


@pytest.mark.parametrize(("before", "after", "target"), TRANSFORMED)
def test_transformed(before: str, after: str, target: str) -> None:
    check_transformed(before, after, target)


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
