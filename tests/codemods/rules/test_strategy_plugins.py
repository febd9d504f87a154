"""Rule ``strategy_plugins`` (deprecated in 1.6): *Plugin strategy classes, TrainingTypePlugin and its registry become *Strategy classes.

Its own rows; the fixture cases that show it run in tests/codemods/test_fixtures.py, the flag rules' rows
in tests/codemods/test_selection_policy.py.
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_transformed, exercised

RULE = "strategy_plugins"


TRANSFORMED = [
    pytest.param(
        "from pytorch_lightning.plugins import DDPPlugin\nDDPPlugin()\n",
        "from pytorch_lightning.strategies import DDPStrategy\nDDPStrategy()\n",
        "1.6",
        id="from-import of a strategy plugin",
    ),
    pytest.param(
        "import pytorch_lightning as pl\nx = pl.plugins.DDPPlugin()\n",
        "import pytorch_lightning as pl\nx = pl.strategies.DDPStrategy()\n",
        "1.6",
        id="attribute chain through a module alias",
    ),
    pytest.param(
        "from pytorch_lightning.plugins import DDPPlugin as P\nP()\n",
        "from pytorch_lightning.strategies import DDPStrategy as P\nP()\n",
        "1.6",
        id="aliased import keeps the alias",
    ),
    pytest.param(
        "from pytorch_lightning.plugins.training_type.ddp import DDPPlugin\n\n\n"
        "def f(p: DDPPlugin) -> bool:\n    return isinstance(p, DDPPlugin)\n",
        "from pytorch_lightning.strategies.ddp import DDPStrategy\n\n\n"
        "def f(p: DDPStrategy) -> bool:\n    return isinstance(p, DDPStrategy)\n",
        "1.6",
        id="module path, type hint and isinstance",
    ),
]


@pytest.mark.parametrize(("before", "after", "target"), TRANSFORMED)
def test_transformed(before: str, after: str, target: str) -> None:
    check_transformed(before, after, target)


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
