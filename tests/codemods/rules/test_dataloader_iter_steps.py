"""Rule ``dataloader_iter_steps``: a LightningModule step written for 1.x's ``dataloader_iter`` (called with
``batch_idx`` too, ``next`` giving the batch) gets one TODO at 2.x, which passes the iterator alone and yields
``(batch, batch_idx, dataloader_idx)``; never a rewrite."""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_todo, exercised, run

RULE = "dataloader_iter_steps"
MODULE = "from pytorch_lightning import LightningModule\n\n\nclass Mine(LightningModule):\n"

TODO = [
    pytest.param(
        MODULE + "    def training_step(self, dataloader_iter, batch_idx): ...\n",
        "batch_idx",
        id="training_step(self, dataloader_iter, batch_idx): 2.x passes no batch_idx",
    ),
    pytest.param(
        MODULE + "    def validation_step(self, dataloader_iter, batch_idx, dataloader_idx): ...\n",
        "batch_idx, dataloader_idx",
        id="validation_step with both indices required",
    ),
    pytest.param(
        MODULE + "    def training_step(self, dataloader_iter):\n        batch = next(dataloader_iter)\n",
        "batch, batch_idx, dataloader_idx = next(dataloader_iter)",
        id="batch = next(dataloader_iter) holds the triplet at 2.x",
    ),
    pytest.param(
        "import pytorch_lightning as pl\n\n\nclass Mine(pl.LightningModule):\n"
        "    def predict_step(self, dataloader_iter, batch_idx=0):\n        x = next(dataloader_iter)\n",
        "x, batch_idx, dataloader_idx",
        id="the index has a default (2.x can call it) but next's value is the triplet",
    ),
]

NOOP = [
    pytest.param(
        MODULE + "    def training_step(self, dataloader_iter):\n"
        "        batch, batch_idx, dataloader_idx = next(dataloader_iter)\n",
        id="already written for 2.x",
    ),
    pytest.param(MODULE + "    def training_step(self, batch, batch_idx): ...\n", id="a step taking a batch"),
    pytest.param(
        "import pytorch_lightning as pl\n\n\nclass Mine:\n"
        "    def training_step(self, dataloader_iter, batch_idx):\n        batch = next(dataloader_iter)\n",
        id="a class of the user's own that is no LightningModule",
    ),
    pytest.param(
        MODULE + "    def helper(self, dataloader_iter, batch_idx):\n        batch = next(dataloader_iter)\n",
        id="a method that is no step",
    ),
]


@pytest.mark.parametrize(("source", "named"), TODO)
def test_todo(source: str, named: str) -> None:
    check_todo(source, "2.6", RULE)
    (found,) = [f for f in run(source, "2.6").findings if f.rule == RULE]
    assert named in found.message


@pytest.mark.parametrize("source", NOOP)
def test_noop(source: str) -> None:
    assert not [f for f in run(source, "2.6").findings if f.rule == RULE]


def test_1_x_targets_are_left_alone() -> None:
    source = MODULE + "    def training_step(self, dataloader_iter, batch_idx): ...\n"
    assert not [f for f in run(source, "1.9").findings if f.rule == RULE]


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
