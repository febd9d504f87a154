"""Rule ``trainer_flag_values``: ``Trainer(max_steps=None)`` (refused since 1.7) is ``max_steps=-1``, plus
``max_epochs=-1`` where 1.5 derived no epoch limit from the None (run on 1.5.10: fit_loop.max_epochs -1 on None,
1000 on -1); a dict of ``accumulate_grad_batches`` (refused since 2.0) gets a TODO naming the callback.
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_noop, check_transformed, exercised

RULE = "trainer_flag_values"
_T = "from pytorch_lightning import Trainer\n"

TRANSFORMED = [
    pytest.param(
        _T + "Trainer(max_steps=None)\n",
        _T + "Trainer(max_steps=-1, max_epochs=-1)\n",
        "2.6",
        id="no epoch limit: 1.5 trained without one on None",
    ),
    pytest.param(
        _T + "Trainer(max_epochs=3, max_steps=None)\n",
        _T + "Trainer(max_epochs=3, max_steps=-1)\n",
        "2.6",
        id="an epoch limit given: -1 reads as None did",
    ),
    pytest.param(
        _T + "Trainer(max_steps=None, max_time='00:01:00:00')\n",
        _T + "Trainer(max_steps=-1, max_time='00:01:00:00')\n",
        "2.6",
        id="max_time given: 2.x's Timer lifts the 1000-epoch default as 1.5 did",
    ),
    pytest.param(
        _T + "Trainer(max_steps=None, max_epochs=cfg.epochs)\n",
        _T + "# TODO(migrate-trainer): max_steps=None is refused since 1.7: pass max_steps=-1, and max_epochs=-1 "
        "where no max_epochs/max_time is given (1.5 trained with no epoch limit on None) [trainer_flag_values]\n"
        "Trainer(max_steps=None, max_epochs=cfg.epochs)\n",
        "2.6",
        id="an epoch limit that may be None at run time gets the TODO",
    ),
    pytest.param(
        _T + "Trainer(accumulate_grad_batches={0: 8, 4: 2})\n",
        _T + "# TODO(migrate-trainer): accumulate_grad_batches takes an int only since 2.0: pass callbacks=["
        "GradientAccumulationScheduler(scheduling={...})] (pytorch_lightning.callbacks), which 1.5 built from the "
        "dict [trainer_flag_values]\nTrainer(accumulate_grad_batches={0: 8, 4: 2})\n",
        "2.6",
        id="an accumulation schedule gets the TODO",
    ),
]


@pytest.mark.parametrize(("before", "after", "target"), TRANSFORMED)
def test_rewrites(before: str, after: str, target: str) -> None:
    check_transformed(before, after, target=target)


NOOP = [
    pytest.param(_T + "Trainer(max_steps=100, accumulate_grad_batches=4)\n", "2.6", id="ints stay"),
    pytest.param(_T + "Trainer(accumulate_grad_batches={0: 8, 4: 2})\n", "1.9", id="1.9 still takes the dict"),
    pytest.param(
        "from mylib import Trainer\n\nTrainer(max_steps=None, accumulate_grad_batches={0: 2})\n",
        "2.6",
        id="another library's Trainer stays",
    ),
]


@pytest.mark.parametrize(("source", "target"), NOOP)
def test_noop(source: str, target: str) -> None:
    check_noop(source, target=target)


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
