"""Rule ``logger_base`` (deprecated in 1.7): ``LightningLoggerBase`` is ``Logger`` and ``pytorch_lightning.loggers.base``
is ``.logger`` (#12014; the module removed in 1.9, #16120; 2.6.6 has only the new names); ``LoggerCollection``
(removed in 1.8, #14283) gets a TODO.

Its own rows; the fixture case that shows it runs in tests/codemods/test_fixtures.py.
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_noop, check_transformed, exercised

RULE = "logger_base"

TRANSFORMED = [
    pytest.param(
        "from pytorch_lightning.loggers import LightningLoggerBase\n\nclass L(LightningLoggerBase):\n    pass\n",
        "from pytorch_lightning.loggers import Logger\n\nclass L(Logger):\n    pass\n",
        "1.7",
        id="the base class",
    ),
    pytest.param(
        "import pytorch_lightning as pl\n\nok = isinstance(x, pl.loggers.base.LightningLoggerBase)\n",
        "import pytorch_lightning as pl\n\nok = isinstance(x, pl.loggers.logger.Logger)\n",
        "2.6",
        id="dotted, through the old module",
    ),
    pytest.param(
        "from pytorch_lightning.loggers import LightningLoggerBase\n\nclass Logger:\n    pass\n\n"
        "class L(LightningLoggerBase):\n    pass\n",
        "from pytorch_lightning.loggers import Logger as LightningLoggerBase\n\nclass Logger:\n    pass\n\n"
        "class L(LightningLoggerBase):\n    pass\n",
        "2.6",
        id="the module's own class Logger: the new class is imported under the old name, the uses stay",
    ),
    pytest.param(
        "from pytorch_lightning.loggers.base import LightningLoggerBase, rank_zero_experiment\n\n"
        "def f(Logger):\n    return LightningLoggerBase\n",
        "from pytorch_lightning.loggers.logger import Logger as LightningLoggerBase, rank_zero_experiment\n\n"
        "def f(Logger):\n    return LightningLoggerBase\n",
        "2.6",
        id="a parameter of that name anywhere: the old local name is kept too",
    ),
]


@pytest.mark.parametrize(("before", "after", "target"), TRANSFORMED)
def test_transformed(before: str, after: str, target: str) -> None:
    check_transformed(before, after, target)


def test_before_the_deprecation_nothing_changes() -> None:
    check_noop("from pytorch_lightning.loggers import LightningLoggerBase\n\nclass L(LightningLoggerBase):\n    pass\n")


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
