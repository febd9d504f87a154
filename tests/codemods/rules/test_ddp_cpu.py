"""Rule ``ddp_cpu`` (deprecated in 1.5): accelerator="ddp_cpu" becomes accelerator="cpu", devices=num_processes (launcher: the target's).

Its own rows; the fixture cases that show it run in tests/codemods/test_fixtures.py, the flag rules' rows
in tests/codemods/test_selection_policy.py.
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_transformed, exercised

RULE = "ddp_cpu"


TRANSFORMED = [
    pytest.param(
        "from pytorch_lightning import Trainer\nTrainer(accelerator='ddp_cpu', num_processes=3)\n",
        "from pytorch_lightning import Trainer\nTrainer(accelerator='cpu', devices=3)\n",
        "1.6",
        id="ddp_cpu (the launcher is the target's)",
    ),
]


@pytest.mark.parametrize(("before", "after", "target"), TRANSFORMED)
def test_transformed(before: str, after: str, target: str) -> None:
    check_transformed(before, after, target)


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
