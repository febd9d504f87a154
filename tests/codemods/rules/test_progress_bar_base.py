"""Rule ``progress_bar_base`` (2.0): ``callbacks.ProgressBarBase`` is ``ProgressBar`` (renamed, #17058), written
under ``callbacks.progress.progress_bar``, a path no 1.x release has, so that a second run never reads it as 1.5's
tqdm ``ProgressBar`` (rule ``tqdm_progress_bar``).
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_noop, check_transformed, exercised, run

RULE = "progress_bar_base"
NEW = "pytorch_lightning.callbacks.progress.progress_bar"

TRANSFORMED = [
    pytest.param(
        "from pytorch_lightning.callbacks import ProgressBarBase\n\nclass Bar(ProgressBarBase):\n    pass\n",
        f"from {NEW} import ProgressBar\n\nclass Bar(ProgressBar):\n    pass\n",
        id="the base class, from callbacks",
    ),
    pytest.param(
        "from pytorch_lightning.callbacks.progress.base import ProgressBarBase\n\nok = isinstance(c, ProgressBarBase)\n",
        f"from {NEW} import ProgressBar\n\nok = isinstance(c, ProgressBar)\n",
        id="from its 1.x module",
    ),
    pytest.param(
        "import pytorch_lightning as pl\n\nclass Bar(pl.callbacks.ProgressBarBase):\n    pass\n",
        f"import pytorch_lightning as pl\n\nclass Bar(pl.{NEW.partition('.')[2]}.ProgressBar):\n    pass\n",
        id="dotted",
    ),
    pytest.param(
        "from pytorch_lightning.callbacks.progress import ProgressBarBase\n\nclass ProgressBar(ProgressBarBase):\n"
        "    pass\n",
        f"from {NEW} import ProgressBar as ProgressBarBase\n\nclass ProgressBar(ProgressBarBase):\n    pass\n",
        id="a subclass named ProgressBar: the base keeps its old local name",
    ),
]


@pytest.mark.parametrize("before", [p.values[0] for p in TRANSFORMED], ids=[p.id for p in TRANSFORMED])
def test_a_second_run_changes_nothing(before: str) -> None:
    once = run(before, "2.6").source
    assert run(once, "2.6").source == once


@pytest.mark.parametrize("target", ["1.6", "1.9"])
def test_before_2_0_nothing_changes(target: str) -> None:
    check_noop(
        "from pytorch_lightning.callbacks import ProgressBarBase\n\nclass Bar(ProgressBarBase):\n    pass\n", target
    )


@pytest.mark.parametrize(("before", "after"), TRANSFORMED)
def test_transformed(before: str, after: str) -> None:
    check_transformed(before, after, "2.6")


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
