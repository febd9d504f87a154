"""Rule ``trainer_loggers``: in a project that passes the Trainer a list of loggers, a call statement on
``trainer.logger`` (or a LightningModule's ``self.logger``) becomes a loop over ``.loggers`` where that is exact, and
any other such call gets a TODO; in a project with one logger nothing changes.

Both sides run in ``tests/codemods/runs`` (``tests/data/programs/logger_list_calls.py``: two loggers, one, none),
and a whole project in ``tests/codemods/projects/logger_list_calls_each_logger``.
"""

from __future__ import annotations

import textwrap
from dataclasses import replace

import pytest

from codemods.frontends.python import transform_python
from codemods.model import Options
from codemods.project.logger_lists import builds_logger_list

RULE = "trainer_loggers"
HEAD = "import pytorch_lightning as pl\n\n\n"


def _run(source: str, lists: bool = True) -> tuple[str, list[str]]:
    options = replace(Options(target="2.6"), logger_lists=lists)
    outcome = transform_python(HEAD + textwrap.dedent(source), options)
    assert outcome.error is None, outcome.error
    again = transform_python(outcome.source, options)
    assert again.source == outcome.source, "a second run must change nothing"
    return outcome.source[len(HEAD) :], [f.kind for f in outcome.findings if f.rule == RULE]


REWRITES = [
    pytest.param(
        "def f(trainer):\n    trainer.logger.log_hyperparams(h)\n",
        "def f(trainer):\n    for logger in trainer.loggers:\n        logger.log_hyperparams(h)\n",
        id="a Trainer parameter's logger.log_hyperparams(h)",
    ),
    pytest.param(
        "def f(trainer, logger):\n    trainer.logger.save()\n",
        "def f(trainer, logger):\n    for each_logger in trainer.loggers:\n        each_logger.save()\n",
        id="a loop variable the function never names (logger is a parameter here)",
    ),
    pytest.param(
        "class M(pl.LightningModule):\n    def on_fit_start(self):\n        self.logger.log_metrics({'a': len(x)})\n",
        "class M(pl.LightningModule):\n    def on_fit_start(self):\n        for logger in self.loggers:\n"
        "            logger.log_metrics({'a': len(x)})\n",
        id="self.logger in a LightningModule, an argument calling a builtin",
    ),
]


@pytest.mark.parametrize(("before", "after"), REWRITES)
def test_exact_rewrites(before: str, after: str) -> None:
    assert _run(before) == (after, ["fix"])


TODOS = [
    pytest.param(
        "def f(trainer):\n    trainer.logger.log_metrics(make(), step=1)\n", id="an argument calling user code"
    ),
    pytest.param("def f(trainer):\n    if trainer.logger: trainer.logger.finalize('ok')\n", id="a one-line if"),
    pytest.param("def f(trainer):\n    done = trainer.logger.save()\n", id="a call inside another statement"),
    pytest.param("trainer = pl.Trainer(logger=[])\ntrainer.logger.save()\n", id="at module level"),
]


@pytest.mark.parametrize("source", TODOS)
def test_todo_rows(source: str) -> None:
    after, kinds = _run(source)
    assert kinds == ["todo"] and after.count(f"[{RULE}]") == 1


NOOPS = [
    pytest.param("def f(trainer):\n    trainer.logger.log_hyperparams(h)\n", False, id="a project with one logger"),
    pytest.param("def f(trainer):\n    print(trainer.logger.version)\n", True, id="a property read"),
    pytest.param("def f(run):\n    run.logger.log_hyperparams(h)\n", True, id="an object the code does not type"),
    pytest.param("class C:\n    def f(self):\n        self.logger.save()\n", True, id="self on a user class"),
]


@pytest.mark.parametrize(("source", "lists"), NOOPS)
def test_noop_rows(source: str, lists: bool) -> None:
    after, kinds = _run(source, lists)
    assert (after, kinds) == (textwrap.dedent(source), [])


DETECTION = [
    pytest.param(b"loggers = [TensorBoardLogger('a'), CSVLogger('b')]\n", "a.py", True, id="a list literal"),
    pytest.param(b"logger: List[Logger] = []\n", "a.py", True, id="an annotated empty list (hydra-template)"),
    pytest.param(b"trainer = Trainer(logger=[tb])\n", "a.py", True, id="a list passed as logger="),
    pytest.param(b"trainer = Trainer(logger=loggers)\n", "a.py", True, id="a plural name passed as logger="),
    pytest.param(b"trainer:\n  logger:\n    - class_path: x\n", "c.yaml", True, id="a LightningCLI config's sequence"),
    pytest.param(b"trainer = Trainer(logger=tb)\n", "a.py", False, id="one logger"),
    pytest.param(b"# TODO(migrate-trainer): pass the loggers as a list (logger=[a, b])\n", "a.py", False, id="a comment"),
    pytest.param(b"self.logger = logging.getLogger()\n", "a.py", False, id="a logging logger"),
    pytest.param(b"trainer:\n  logger: true\n", "c.yaml", False, id="a config's logger flag"),
]


@pytest.mark.parametrize(("data", "path", "found"), DETECTION)
def test_phase_one_finds_lists_of_loggers(data: bytes, path: str, found: bool) -> None:
    assert builds_logger_list(data, path) is found
