"""Rule ``plugins_strategy`` (deprecated in 1.5): a strategy passed in plugins= moves to strategy=.

Its own rows; the fixture cases that show it run in tests/codemods/test_fixtures.py, the flag rules' rows
in tests/codemods/test_selection_policy.py.
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_transformed, exercised

RULE = "plugins_strategy"


TRANSFORMED = [
    pytest.param(
        "from pytorch_lightning import Trainer\nTrainer(accelerator='ddp_spawn', plugins=['ddp_find_unused_parameters_false'])\n",
        "from pytorch_lightning import Trainer\nTrainer(strategy='ddp_find_unused_parameters_false')\n",
        "1.6",
        id="plugins strategy wins over accelerator strategy",
    ),
    pytest.param(
        "from compat import Runner\nfrom compat.plugins import DDPPlugin\nRunner(gpus=2, plugins=[DDPPlugin()])\n",
        "from newcore import Runner\nfrom newcore.strategies import DDPStrategy\n"
        'Runner(accelerator="gpu", devices=2, strategy=DDPStrategy())\n',
        "1.6",
        id="compat code migrates to newcore",
    ),
]


@pytest.mark.parametrize(("before", "after", "target"), TRANSFORMED)
def test_transformed(before: str, after: str, target: str) -> None:
    check_transformed(before, after, target)


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
