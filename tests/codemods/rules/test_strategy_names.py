"""Rule ``strategy_names`` (deprecated in 1.7): strategy names that change meaning or disappear (ddp2, dp, horovod, FairScale, fsdp) are flagged.

Its own rows; the fixture cases that show it run in tests/codemods/test_fixtures.py, the flag rules' rows
in tests/codemods/test_selection_policy.py.
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_todo, exercised

RULE = "strategy_names"


TODO = [
    pytest.param(
        "from pytorch_lightning import Trainer\nTrainer(strategy='dp', accelerator='gpu', devices=2)\n",
        "2.0",
        "strategy_names",
        id="dp on 2.0",
    ),
]


@pytest.mark.parametrize(("source", "target", "rule"), TODO)
def test_todo_leaves_code_and_says_why(source: str, target: str, rule: str) -> None:
    check_todo(source, target, rule)


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
