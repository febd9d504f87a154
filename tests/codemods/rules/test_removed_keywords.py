"""Rule ``removed_keywords``: a keyword a Lightning class or Trainer method no longer takes at the target is renamed
where it is the same argument (1.5.10's source assigned the old keyword to the new one), else flagged once.

The keywords each release takes are the signatures recorded from the real releases (``legacy_api.surface``).
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_transformed, exercised, run

RULE = "removed_keywords"
HEAD = "import pytorch_lightning as pl\nfrom pytorch_lightning.callbacks import ModelCheckpoint\n\ntrainer = pl.Trainer()\n"

TRANSFORMED = [
    pytest.param(
        HEAD + "trainer.fit(model, train_dataloader=loader)\n",
        HEAD + "trainer.fit(model, train_dataloaders=loader)\n",
        id="fit(train_dataloader=) is train_dataloaders= (an alias 1.5 assigned, gone in 1.6)",
    ),
    pytest.param(
        HEAD + "trainer.validate(model, val_dataloaders=loader)\n",
        HEAD + "trainer.validate(model, dataloaders=loader)\n",
        id="validate(val_dataloaders=) is dataloaders=",
    ),
    pytest.param(
        HEAD + "trainer.test(model, test_dataloaders=loader)\n",
        HEAD + "trainer.test(model, dataloaders=loader)\n",
        id="test(test_dataloaders=) is dataloaders=",
    ),
    pytest.param(
        HEAD + "ckpt = ModelCheckpoint(monitor='loss', every_n_val_epochs=2)\n",
        HEAD + "ckpt = ModelCheckpoint(monitor='loss', every_n_epochs=2)\n",
        id="ModelCheckpoint(every_n_val_epochs=) is every_n_epochs=",
    ),
]

TODO = [
    pytest.param(
        HEAD + "ckpt = ModelCheckpoint(monitor='loss', period=2)\n",
        ["ModelCheckpoint takes no period="],
        id="a keyword the target refuses: a TypeError there",
    ),
    pytest.param(
        "from pytorch_lightning.strategies import DDPStrategy\n\nstrategy = DDPStrategy(num_nodes=2)\n",
        ["num_nodes=", "**kwargs", "Trainer(num_nodes=...)"],
        id="a keyword the target forwards to torch's DDP: the TODO names the Trainer flag",
    ),
    pytest.param(
        HEAD + "trainer.fit(model, train_dataloader=a, train_dataloaders=b)\n",
        ["takes no train_dataloader="],
        id="old and new keyword both given: no rename, a TODO",
    ),
]

NOOP = [
    pytest.param(HEAD + "trainer.fit(model, train_dataloaders=loader)\n", id="the target's keyword"),
    pytest.param(HEAD + "ckpt = ModelCheckpoint(monitor='loss', every_n_epochs=2)\n", id="a keyword the class takes"),
    pytest.param(
        "from pytorch_lightning.strategies import DDPStrategy\n\nstrategy = DDPStrategy(find_unused_parameters=True)\n",
        id="a keyword meant for torch's DDP",
    ),
    pytest.param("history = model.fit(x, train_dataloader=y)\n", id="fit of something that is no Trainer"),
]


@pytest.mark.parametrize(("before", "after"), TRANSFORMED)
def test_transformed(before: str, after: str) -> None:
    outcome = check_transformed(before, after, target="2.6")
    assert [f.kind for f in outcome.findings if f.rule == RULE] == ["fix"]


@pytest.mark.parametrize(("source", "named"), TODO)
def test_todo(source: str, named: list[str]) -> None:
    outcome = run(source, "2.6")
    (found,) = [f for f in outcome.findings if f.rule == RULE]
    assert found.kind == "todo"
    for text in named:
        assert text in found.message


@pytest.mark.parametrize("source", NOOP)
def test_noop(source: str) -> None:
    assert not [f for f in run(source, "2.6").findings if f.rule == RULE]


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
