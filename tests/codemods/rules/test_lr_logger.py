"""Rule ``lr_logger``: ``callbacks.LearningRateLogger`` (0.10's deprecated subclass of ``LearningRateMonitor``,
which only forwarded its arguments; removed in 1.0) becomes ``LearningRateMonitor``, at every target."""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_transformed, exercised, run

RULE = "lr_logger"

TRANSFORMED = [
    pytest.param(
        "from pytorch_lightning.callbacks import EarlyStopping, LearningRateLogger\n\nlr = LearningRateLogger()\n",
        "from pytorch_lightning.callbacks import EarlyStopping, LearningRateMonitor\n\nlr = LearningRateMonitor()\n",
        id="imported from callbacks next to another name",
    ),
    pytest.param(
        "import pytorch_lightning as pl\n\nlr = pl.callbacks.LearningRateLogger(logging_interval='step')\n",
        "import pytorch_lightning as pl\n\nlr = pl.callbacks.LearningRateMonitor(logging_interval='step')\n",
        id="dotted, with its one argument",
    ),
    pytest.param(
        "from pytorch_lightning.callbacks.lr_logger import LearningRateLogger\n",
        "from pytorch_lightning.callbacks.lr_monitor import LearningRateMonitor\n",
        id="from its 0.x module",
    ),
]


@pytest.mark.parametrize(("before", "after"), TRANSFORMED)
@pytest.mark.parametrize("target", ["1.6", "2.6"])
def test_transformed(before: str, after: str, target: str) -> None:
    check_transformed(before, after, target)
    assert run(after, target).source == after


def test_the_users_own_class_of_that_name_is_left() -> None:
    source = "class LearningRateLogger:\n    pass\n\nlr = LearningRateLogger()\n"
    assert run(source, "2.6").source == source


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
