"""Rule ``tuner_calls``: ``trainer.tuner.lr_find(...)`` becomes ``Tuner(trainer).lr_find(..., update_attr=False)``
(2.0 removed ``Trainer.tuner``, and its ``lr_find`` writes the suggested rate into the model by default, which 1.5's
did not: run on 1.5.10 and 2.6.6, the model's ``lr`` after ``lr_find`` is the same only with ``update_attr=False``).
Calls whose arguments the two signatures read differently keep rule ``removed_attributes``' TODO."""

from __future__ import annotations

import pytest

from tests.codemods.helpers import run

RULE = "tuner_calls"
HEAD = "import pytorch_lightning as pl\n\ntrainer = pl.Trainer()\n"
TUNER = "import pytorch_lightning as pl\nfrom pytorch_lightning.tuner import Tuner\n\ntrainer = pl.Trainer()\n"


@pytest.mark.parametrize(
    ("source", "after"),
    [
        pytest.param(
            HEAD + "lr = trainer.tuner.lr_find(model)\n",
            TUNER + "lr = Tuner(trainer).lr_find(model, update_attr=False)\n",
            id="1.5's default: the model's rate is left as it is",
        ),
        pytest.param(
            HEAD + "lr = trainer.tuner.lr_find(model, train_dl, val_dl, min_lr=1e-5)\n",
            TUNER + "lr = Tuner(trainer).lr_find(model, train_dl, val_dl, min_lr=1e-5, update_attr=False)\n",
            id="the three positional arguments both signatures share",
        ),
        pytest.param(
            HEAD + "lr = trainer.tuner.lr_find(model, update_attr=True)\n",
            TUNER + "lr = Tuner(trainer).lr_find(model, update_attr=True)\n",
            id="the call's own update_attr",
        ),
    ],
)
def test_rewrites(source: str, after: str) -> None:
    outcome = run(source, "2.6")
    assert outcome.source == after
    assert [f.kind for f in outcome.findings if f.rule == RULE] == ["fix"]
    assert not [f for f in outcome.findings if f.kind == "todo"]
    assert run(outcome.source, "2.6").source == outcome.source


@pytest.mark.parametrize(
    "source",
    [
        pytest.param(HEAD + "lr = trainer.tuner.lr_find(model, dl, dl, dm)\n", id="1.5's datamodule is 2.x's 4th"),
        pytest.param(HEAD + "lr = trainer.tuner.lr_find(model, train_dataloader=dl)\n", id="1.5's deprecated keyword"),
        pytest.param(HEAD + "lr = trainer.tuner.lr_find(*args)\n", id="a splat"),
        pytest.param(HEAD + "size = trainer.tuner.scale_batch_size(model)\n", id="2.x's search adds a margin"),
    ],
)
def test_left_with_the_todo(source: str) -> None:
    outcome = run(source, "2.6")
    assert not [f for f in outcome.findings if f.rule == RULE]
    assert "Trainer.tuner is gone in 2.0" in outcome.source


@pytest.mark.parametrize(
    ("source", "target"),
    [
        pytest.param(HEAD + "lr = trainer.tuner.lr_find(model)\n", "1.9", id="before 2.0 the Trainer has it"),
        pytest.param("lr = holder.tuner.lr_find(model)\n", "2.6", id="nothing shows a Trainer"),
    ],
)
def test_noop(source: str, target: str) -> None:
    outcome = run(source, target)
    assert not [f for f in outcome.findings if f.rule == RULE]
    assert "Tuner(" not in outcome.source
