"""Rule ``tqdm_progress_bar``: 1.5's ``callbacks.ProgressBar`` (a deprecated subclass of ``TQDMProgressBar`` that only
forwarded its arguments, removed in 1.7) is ``TQDMProgressBar``; 2.x's ``ProgressBar`` is the renamed
``ProgressBarBase``, which draws nothing, so the rename applies at every target.
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_noop, check_transformed, exercised

RULE = "tqdm_progress_bar"

TRANSFORMED = [
    pytest.param(
        "from pytorch_lightning.callbacks import ProgressBar\nbar = ProgressBar(refresh_rate=10)\n",
        "from pytorch_lightning.callbacks import TQDMProgressBar\nbar = TQDMProgressBar(refresh_rate=10)\n",
        "2.6",
        id="the tqdm bar keeps its arguments at 2.6, where ProgressBar is the drawing-less base",
    ),
    pytest.param(
        "from pytorch_lightning.callbacks import ProgressBar\nbar = ProgressBar()\n",
        "from pytorch_lightning.callbacks import TQDMProgressBar\nbar = TQDMProgressBar()\n",
        "1.6",
        id="at 1.6 too, where ProgressBar still warns",
    ),
    pytest.param(
        "import pytorch_lightning as pl\nbar = pl.callbacks.progress.ProgressBar()\n",
        "import pytorch_lightning as pl\nbar = pl.callbacks.progress.TQDMProgressBar()\n",
        "2.6",
        id="dotted through callbacks.progress",
    ),
    pytest.param(
        "from pytorch_lightning.callbacks.progress.progress import ProgressBar\n\n\nclass Bar(ProgressBar):\n    pass\n",
        "from pytorch_lightning.callbacks.progress.tqdm_progress import TQDMProgressBar\n\n\n"
        "class Bar(TQDMProgressBar):\n    pass\n",
        "2.6",
        id="the removed module's class, as a base class",
    ),
    pytest.param(
        "from pytorch_lightning.callbacks import ProgressBar, ProgressBarBase\n\n\nclass Bar(ProgressBarBase):\n"
        "    pass\n\n\nbar = ProgressBar()\n",
        "from pytorch_lightning.callbacks import TQDMProgressBar, ProgressBarBase\n\n\nclass Bar(ProgressBarBase):\n"
        "    pass\n\n\nbar = TQDMProgressBar()\n",
        "1.9",
        id="ProgressBarBase beside it keeps its name (1.9 has it)",
    ),
]


@pytest.mark.parametrize(("before", "after", "target"), TRANSFORMED)
def test_rewrites(before: str, after: str, target: str) -> None:
    check_transformed(before, after, target=target)


NOOP = [
    pytest.param(
        "from pytorch_lightning.callbacks import TQDMProgressBar\nbar = TQDMProgressBar()\n",
        id="the new name stays",
    ),
    pytest.param(
        "from mypkg.callbacks import ProgressBar\nbar = ProgressBar()\n",
        id="a ProgressBar of another package stays",
    ),
    pytest.param(
        "from pytorch_lightning import Trainer\n\n\nclass ProgressBar:\n    pass\n\n\nbar = ProgressBar()\n",
        id="the user's own ProgressBar class stays",
    ),
]


@pytest.mark.parametrize("source", NOOP)
def test_noop(source: str) -> None:
    check_noop(source, target="2.6")


def test_progress_bar_base_is_not_chained_into_the_tqdm_bar() -> None:
    # 2.0 renamed ProgressBarBase to ProgressBar: its row (rule progress_bar_base) writes a path no 1.x release has,
    # so it never goes on to TQDMProgressBar, in this run or the next.
    from codemods.plan.resolve import resolve

    base = resolve("pytorch_lightning.callbacks.ProgressBarBase", (2, 6))
    assert base is not None and base.new == "pytorch_lightning.callbacks.progress.progress_bar.ProgressBar"
    assert resolve(base.new, (2, 6)) is None
    found = resolve("pytorch_lightning.callbacks.ProgressBar", (2, 6))
    assert found is not None
    assert found.new == "pytorch_lightning.callbacks.TQDMProgressBar"


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
