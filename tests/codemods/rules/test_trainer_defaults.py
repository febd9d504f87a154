"""Rule ``trainer_defaults`` (deprecated in 2.0): 2.0 default accelerator/devices/strategy changes are flagged or reported; LightningCLI's trainer_defaults are migrated as flags.

Its own rows; the fixture cases that show it run in tests/codemods/test_fixtures.py, the flag rules' rows
in tests/codemods/test_selection_policy.py.
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_todo, exercised

RULE = "trainer_defaults"


TODO = [
    pytest.param(
        "from pytorch_lightning import Trainer\nTrainer(num_nodes=2)\n", "2.0", "trainer_defaults", id="2.0 defaults"
    ),
]


@pytest.mark.parametrize(("source", "target", "rule"), TODO)
def test_todo_leaves_code_and_says_why(source: str, target: str, rule: str) -> None:
    check_todo(source, target, rule)


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
