"""Rule ``logger_collection_checks``: the 1.5 idiom that looks for one logger among ``trainer.logger``'s becomes a
loop over ``trainer.loggers`` under ``len(trainer.loggers) > 1``, where the statement before it looks at the one
logger the same way (then a list of one, a collection in 1.5 and one logger in 2.x, gives the same answer: both sides
run in ``tests/data/programs/logger_collection_lookup.py``). Any other use keeps rule ``logger_base``'s TODO, and the
import goes with its last use."""

from __future__ import annotations

import pytest

from tests.codemods.helpers import run

RULE = "logger_collection_checks"
HEAD = "from pytorch_lightning.loggers import LoggerCollection, WandbLogger\n\n\n"
AFTER_HEAD = "from pytorch_lightning.loggers import WandbLogger\n\n\n"
RETURN_BEFORE = (
    "def find(trainer):\n    if isinstance(trainer.logger, WandbLogger):\n        return trainer.logger{path}\n"
)
LOOP = (
    "    if isinstance({holder}.logger, LoggerCollection):\n"
    "        for logger in {holder}.logger{iterable}:\n"
    "            if isinstance(logger, WandbLogger):\n"
    "                return logger{path}\n"
)
NEW_LOOP = (
    "    if len({holder}.loggers) > 1:\n"
    "        for logger in {holder}.loggers:\n"
    "            if isinstance(logger, WandbLogger):\n"
    "                return logger{path}\n"
)
ASSIGN = (
    "import pytorch_lightning as pl\n{head}"
    "class Module(pl.LightningModule):\n"
    "    def plot(self):\n"
    "        run = self.logger.experiment\n"
    "        if isinstance(self.logger, {collection}):\n"
    "            for each in self.logger:\n"
    "                if isinstance(each, WandbLogger):\n"
    "                    run = each.experiment\n"
    "                    break\n"
    "        return run\n"
)


def _find(head: str, loop: str, path: str = "", iterable: str = "") -> str:
    return head + RETURN_BEFORE.format(path=path) + loop.format(holder="trainer", path=path, iterable=iterable)


@pytest.mark.parametrize(
    ("source", "after"),
    [
        pytest.param(_find(HEAD, LOOP), _find(AFTER_HEAD, NEW_LOOP), id="the logger itself, returned"),
        pytest.param(_find(HEAD, LOOP, ".experiment"), _find(AFTER_HEAD, NEW_LOOP, ".experiment"), id="its experiment"),
        pytest.param(
            _find(HEAD, LOOP, iterable="._logger_iterable"),
            _find(AFTER_HEAD, NEW_LOOP),
            id="the collection's own list",
        ),
        pytest.param(
            ASSIGN.format(head=HEAD.replace("LoggerCollection, ", ""), collection="pl.loggers.LoggerCollection"),
            ASSIGN.format(head=AFTER_HEAD, collection="pl.loggers.LoggerCollection")
            .replace("isinstance(self.logger, pl.loggers.LoggerCollection)", "len(self.loggers) > 1")
            .replace("for each in self.logger:", "for each in self.loggers:"),
            id="a module's self.logger, assigned before the loop and in it",
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
        pytest.param(
            HEAD + "def find(trainer):\n" + LOOP.format(holder="trainer", path="", iterable=""),
            id="no look at the one logger before the loop: a list of one differs",
        ),
        pytest.param(
            HEAD + RETURN_BEFORE.format(path=".experiment") + LOOP.format(holder="trainer", path="", iterable=""),
            id="the one logger's experiment, the loop's logger",
        ),
        pytest.param(
            HEAD
            + RETURN_BEFORE.format(path="").replace("WandbLogger):", "object):")
            + LOOP.format(holder="trainer", path="", iterable=""),
            id="another class before the loop",
        ),
        pytest.param(
            HEAD
            + RETURN_BEFORE.format(path="").replace("trainer", "holder")
            + LOOP.format(holder="holder", path="", iterable=""),
            id="an object not known to be a Trainer or a LightningModule",
        ),
        pytest.param(
            HEAD
            + RETURN_BEFORE.format(path="")
            + LOOP.format(holder="trainer", path="", iterable="")
            + "    else:\n        return None\n",
            id="an else branch",
        ),
    ],
)
def test_left_with_the_todo(source: str) -> None:
    outcome = run(source, "2.6")
    assert not [f for f in outcome.findings if f.rule == RULE]
    assert "LoggerCollection: LoggerCollection is gone in 1.8" in outcome.source
    assert "so this import fails" in outcome.source


def test_before_1_8_the_collection_is_there() -> None:
    source = _find(HEAD, LOOP)
    assert run(source, "1.7").source == source
