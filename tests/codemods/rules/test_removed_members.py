"""Rule ``removed_members``: a use of a LightningModule, LightningDataModule, callback, logger, profiler or loop member
the target lacks (or no longer lets you set, or returns in another shape) gets one TODO on its line naming what
replaced it; nothing is rewritten, and what the code does not show to be a Lightning object is left alone.

Every ``gone`` row of ``legacy_api.removed_members`` is checked against the recordings in
``tests/legacy_api/test_removed_members.py``.
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import run

RULE = "removed_members"
PL = "pytorch_lightning"


def _module(*lines: str, base: str = "LightningModule") -> str:
    body = "".join(f"        {line}\n" for line in lines)
    return f"from {PL} import {base}\n\n\nclass Mine({base}):\n    def training_step(self, batch, batch_idx):\n{body}"


def _made(module: str, cls: str, *lines: str) -> str:
    return f"from {module} import {cls}\n\nobj = {cls}()\n" + "".join(f"{line}\n" for line in lines)


TODO = [
    pytest.param(
        f"from {PL} import LightningDataModule\n\n\nclass MNIST(LightningDataModule):\n    pass\n\n\n"
        "dm = MNIST()\nshape = dm.size()\n",
        "LightningDataModule.size",
        id="an instance of the module's own data module: dm.size() (basic-gan's first AttributeError on 2.x)",
    ),
    pytest.param(
        f"from {PL} import LightningDataModule\n\n\nclass A(LightningDataModule):\n    pass\n\n\n"
        "class B(LightningDataModule):\n    pass\n\n\ndef f(x):\n    if x:\n        cls = A\n    else:\n"
        "        cls = B\n    dm = cls.from_argparse_args(x)\n    return dm.size()\n",
        "LightningDataModule.size",
        id="a data module whose class a variable picks at run time (bolts' dm_cls.from_argparse_args(args))",
    ),
    pytest.param(
        _module("s = self.summarize()"), "LightningModule.summarize is gone", id="self.summarize() in a module"
    ),
    pytest.param(
        _module("size = self.model_size"), "ModelSummary(self).model_size", id="self.model_size names ModelSummary"
    ),
    pytest.param(_module("data = self.datamodule"), "self.trainer.datamodule", id="self.datamodule (removed in 1.5)"),
    pytest.param(_module("amp = self.use_amp"), "self.trainer.precision", id="self.use_amp names trainer.precision"),
    pytest.param(_module("bits = self.precision"), "(removed in 2.0)", id="self.precision is gone in 2.0"),
    pytest.param(
        _module("self.truncated_bptt_steps = 5"),
        "truncated back-propagation",
        id="setting truncated_bptt_steps, which 1.x acted on",
    ),
    pytest.param(
        _made(f"{PL}", "LightningDataModule", "ready = obj.has_setup_fit"),
        "has_setup_fit is gone",
        id="a data module instance's state flag",
    ),
    pytest.param(
        _module("shape = self.dims", base="LightningDataModule"),
        "an attribute of your own data module",
        id="self.dims in a data module that never sets it",
    ),
    pytest.param(
        _made(f"{PL}.callbacks", "ModelCheckpoint", "obj.save_function('a.ckpt')"),
        "trainer.save_checkpoint",
        id="ModelCheckpoint.save_function",
    ),
    pytest.param(
        _made(f"{PL}.callbacks", "LearningRateMonitor", "names = obj.lr_sch_names"),
        "monitor.lrs.keys()",
        id="LearningRateMonitor.lr_sch_names",
    ),
    pytest.param(
        f"from {PL}.loggers import TensorBoardLogger\n\nlogger = TensorBoardLogger('logs')\nlogger.close()\n",
        "finalize('success')",
        id="a logger subclass's close()",
    ),
    pytest.param(
        f"from {PL}.loggers import TensorBoardLogger\n\n\ndef f(logger: TensorBoardLogger):\n"
        "    logger.agg_and_log_metrics({}, step=0)\n",
        "logger.log_metrics",
        id="a parameter annotated with a logger class",
    ),
    pytest.param(
        f"from {PL} import Trainer\n\ntrainer = Trainer()\ntrainer.fit_loop.replace(epoch_loop=MyLoop)\n",
        "no longer pluggable",
        id="trainer.fit_loop.replace: a loop the Trainer holds",
    ),
    pytest.param(
        f"from {PL} import Trainer\n\ntrainer = Trainer()\ntrainer.fit_loop.max_steps = 10\n",
        "can no longer be set since 2.0: Trainer(max_steps=...)",
        id="setting fit_loop.max_steps",
    ),
    pytest.param(
        f"from {PL} import Trainer\n\ntrainer = Trainer()\ntrainer.model = model\n",
        "Trainer.model can no longer be set",
        id="setting trainer.model",
    ),
    pytest.param(
        f"from {PL} import Trainer\n\ntrainer = Trainer()\ntotal = trainer.num_val_batches\n",
        "sum(...) for the total",
        id="trainer.num_val_batches is a list since 2.0",
    ),
    pytest.param(
        f"from {PL}.callbacks import ProgressBarBase\n\n\nclass Bar(ProgressBarBase):\n"
        "    def on_train_batch_end(self, *args):\n        print(self.train_batch_idx)\n",
        "fit_loop.epoch_loop.batch_progress.current.processed",
        id="self.train_batch_idx in a progress bar subclass",
    ),
]


@pytest.mark.parametrize(("source", "message"), TODO)
def test_todo_rows(source: str, message: str) -> None:
    outcome = run(source, "2.6")
    found = [f for f in outcome.findings if f.rule == RULE]
    assert len(found) == 1, [f.message for f in outcome.findings]
    assert found[0].kind == "todo" and message in found[0].message, found[0].message
    assert found[0].line == len(source.splitlines()), "the finding is on the use's line"
    assert outcome.source.count(f"[{RULE}]") == 1
    assert run(outcome.source, "2.6").source == outcome.source, "a second run must change nothing"


NOOP = [
    pytest.param(
        f"from {PL} import LightningDataModule\n\n\nclass Sized(LightningDataModule):\n    def size(self):\n"
        "        return 3\n\n\ndm = Sized()\nn = dm.size()\n",
        id="an instance of the module's own data module that defines size itself",
    ),
    pytest.param(
        "class Mine:\n    def f(self):\n        return self.summarize(), self.model_size\n", id="self on a user class"
    ),
    pytest.param(
        _module("return self.summarize()").replace(
            "    def training_step", "    def summarize(self):\n        return 1\n\n    def training_step"
        ),
        id="a module that defines summarize itself",
    ),
    pytest.param(
        f"from {PL} import LightningDataModule\n\n\nclass Data(LightningDataModule):\n"
        "    def __init__(self):\n        self.dims = (1, 28, 28)\n\n    def f(self):\n        return self.dims\n",
        id="a data module that sets and reads its own dims",
    ),
    pytest.param(
        f"from {PL} import Trainer\n\ntrainer = Trainer()\nsteps = trainer.fit_loop.max_steps\n",
        id="reading fit_loop.max_steps, which 2.x keeps",
    ),
    pytest.param(
        f"from {PL} import Trainer\n\n\ndef f(cfg):\n    return cfg.trainer.num_val_batches\n",
        id="a config node named trainer",
    ),
    pytest.param(f"import {PL}\n\n\ndef f(logger):\n    logger.close()\n", id="an object the code does not type"),
]


@pytest.mark.parametrize("source", NOOP)
def test_noop_rows(source: str) -> None:
    outcome = run(source, "2.6")
    assert [f.message for f in outcome.findings if f.rule == RULE] == []


TARGETS = [
    pytest.param(_module("bits = self.precision"), "1.9", 0, id="self.precision at 1.9, which still has it"),
    pytest.param(_module("bits = self.precision"), "2.0", 1, id="self.precision at 2.0"),
    pytest.param(
        f"from {PL} import Trainer\n\ntrainer = Trainer()\ntotal = trainer.num_val_batches\n",
        "1.9",
        0,
        id="num_val_batches at 1.9, still a number there",
    ),
]


@pytest.mark.parametrize(("source", "target", "count"), TARGETS)
def test_the_target_decides(source: str, target: str, count: int) -> None:
    assert len([f for f in run(source, target).findings if f.rule == RULE]) == count
