"""Rule ``amp_flags`` (deprecated in 1.8): amp_backend=/amp_level= become native AMP or an ApexMixedPrecisionPlugin.

Its own rows; the fixture cases that show it run in tests/codemods/test_fixtures.py, the flag rules' rows
in tests/codemods/test_selection_policy.py.
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_todo, check_transformed, exercised

RULE = "amp_flags"


TRANSFORMED = [
    pytest.param(
        "from pytorch_lightning import Trainer\nTrainer(amp_backend='native', precision=16)\n",
        "from pytorch_lightning import Trainer\nTrainer(precision=16)\n",
        "1.9",
        id="native amp_backend dropped",
    ),
    pytest.param(
        "from pytorch_lightning import Trainer\nTrainer(amp_backend='apex', amp_level='O2', precision=16)\n",
        "from pytorch_lightning import Trainer\nfrom pytorch_lightning.plugins import ApexMixedPrecisionPlugin\n\n"
        "Trainer(plugins=[ApexMixedPrecisionPlugin(amp_level='O2')], precision=16)\n",
        "1.8",
        id="apex becomes a plugin",
    ),
]


@pytest.mark.parametrize(("before", "after", "target"), TRANSFORMED)
def test_transformed(before: str, after: str, target: str) -> None:
    check_transformed(before, after, target)


TODO = [
    pytest.param(
        "from pytorch_lightning import Trainer\nTrainer(amp_backend='apex', precision='16-mixed')\n",
        "2.0",
        "amp_flags",
        id="apex on 2.0",
    ),
]


@pytest.mark.parametrize(("source", "target", "rule"), TODO)
def test_todo_leaves_code_and_says_why(source: str, target: str, rule: str) -> None:
    check_todo(source, target, rule)


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
