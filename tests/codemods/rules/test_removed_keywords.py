"""Rule ``removed_keywords``: a keyword a Lightning class or Trainer method no longer takes at the target is renamed
where it is the same argument (1.5.10's source assigned the old keyword to the new one), else flagged once.

The keywords each release takes are the signatures recorded from the real releases (``legacy_api.surface``).
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_transformed, exercised, run

RULE = "removed_keywords"
HEAD = "import pytorch_lightning as pl\nfrom pytorch_lightning.callbacks import ModelCheckpoint\n\ntrainer = pl.Trainer()\n"
MODULE = (
    "import pytorch_lightning as pl\n\n\nclass Model(pl.LightningModule):\n    def training_step(self, batch, i):\n"
)
OWN = "from pytorch_lightning.callbacks import ModelCheckpoint\n\n\nclass Keep(ModelCheckpoint):\n    def __init__(self):\n"

COMET = "from pytorch_lightning.loggers import CometLogger\n\nlogger = CometLogger("
TRANSFORMED = [
    pytest.param(
        COMET + "api_key='k', project_name='p')\n",
        COMET + "api_key='k', project='p')\n",
        id="CometLogger(project_name=) is project= (2.x maps it itself, with a warning)",
    ),
    pytest.param(
        COMET + "experiment_name='e')\n",
        COMET + "name='e')\n",
        id="CometLogger(experiment_name=) is name=, which 2.x takes through **kwargs",
    ),
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
    pytest.param(
        HEAD + "ckpt = ModelCheckpoint(save_top_k=-1, period=1, dirpath='x')\n",
        HEAD + "ckpt = ModelCheckpoint(save_top_k=-1, every_n_epochs=1, dirpath='x')\n",
        id="ModelCheckpoint(period=) is every_n_epochs= (1.5.10 set one from the other)",
    ),
    pytest.param(
        "from pytorch_lightning.callbacks.model_checkpoint import ModelCheckpoint\n\nc = ModelCheckpoint(period=1)\n",
        "from pytorch_lightning.callbacks.model_checkpoint import ModelCheckpoint\n\nc = ModelCheckpoint(every_n_epochs=1)\n",
        id="the class named by its module's path (TransformerSum)",
    ),
    pytest.param(
        HEAD + "ckpt = ModelCheckpoint(save_top_k=1, period=-1)\n",
        HEAD + "ckpt = ModelCheckpoint(save_top_k=1, every_n_epochs=0)\n",
        id="ModelCheckpoint(period=-1) saved nothing at epochs' ends (1.2; 1.3+ raise for -1): every_n_epochs=0",
    ),
    pytest.param(
        MODULE + "        self.log('loss', 1.0, sync_dist_op='sum')\n",
        MODULE + "        self.log('loss', 1.0, reduce_fx='sum')\n",
        id="self.log(sync_dist_op=) in a LightningModule is reduce_fx= (1.5.10 took it where reduce_fx was default)",
    ),
    pytest.param(
        MODULE + "        self.log_dict(d, sync_dist_op='sum')\n",
        MODULE + "        self.log_dict(d, reduce_fx='sum')\n",
        id="self.log_dict(sync_dist_op=) is reduce_fx= too",
    ),
    pytest.param(
        OWN + "        super().__init__(every_n_val_epochs=2)\n",
        OWN + "        super().__init__(every_n_epochs=2)\n",
        id="super().__init__ of a Lightning base is that class's call",
    ),
    pytest.param(
        "from pytorch_lightning.utilities.model_helpers import is_overridden\n\nok = is_overridden('x', model=m)\n",
        "from pytorch_lightning.utilities.model_helpers import is_overridden\n\nok = is_overridden('x', instance=m)\n",
        id="is_overridden(model=) is instance= (1.5.10 took model as instance; a function's signature from the table)",
    ),
    pytest.param(
        "from pytorch_lightning import Trainer\nfrom pytorch_lightning.plugins import DDPPlugin\n\n"
        "trainer = Trainer(strategy=DDPPlugin(num_nodes=2, static_graph=True), num_nodes=2)\n",
        "from pytorch_lightning import Trainer\nfrom pytorch_lightning.strategies import DDPStrategy\n\n"
        'trainer = Trainer(strategy=DDPStrategy(static_graph=True), num_nodes=2, accelerator="cpu", devices=1)\n',
        id="a 1.5 plugin's num_nodes= is dropped: the Trainer's own flag sets it, in 1.x as at the target",
    ),
    pytest.param(
        "from pytorch_lightning import Trainer\nfrom pytorch_lightning.plugins import DDPPlugin\n\n"
        "trainer = Trainer(strategy=DDPPlugin(sync_batchnorm=False))\n",
        "from pytorch_lightning import Trainer\nfrom pytorch_lightning.strategies import DDPStrategy\n\n"
        'trainer = Trainer(strategy=DDPStrategy(), accelerator="cpu", devices=1)\n',
        id="sync_batchnorm= the Trainer's default in the same call: dropped, nothing to report",
    ),
    pytest.param(
        "from pytorch_lightning.cli import LightningCLI\n\ncli = LightningCLI(M, seed_everything_default=None)\n",
        "from pytorch_lightning.cli import LightningCLI\n\ncli = LightningCLI(M, seed_everything_default=False)\n",
        id="LightningCLI(seed_everything_default=None) is False (1.x did not seed on None, 2.x seeds at random)",
    ),
]

TODO = [
    pytest.param(
        COMET + "api_key='k', save_dir='out')\n",
        ["save_dir=", "offline_directory=", "online=False", "ModelCheckpoint(dirpath=)"],
        id="CometLogger(save_dir=): 2.x no longer runs offline for it",
    ),
    pytest.param(
        COMET + "offline=True)\n",
        ["not inverted", "online=False"],
        id="CometLogger(offline=True): 2.6 reads it as online=True",
    ),
    pytest.param(
        HEAD + "ckpt = ModelCheckpoint(monitor='loss', period=2, every_n_epochs=3)\n",
        ["ModelCheckpoint takes no period=", "1.5.10 took period= over it"],
        id="a renamed keyword next to its new name: a TypeError there, and 1.5 used the old one",
    ),
    pytest.param(
        "from pytorch_lightning.strategies import DDPStrategy\n\nstrategy = DDPStrategy(num_nodes=2)\n",
        ["num_nodes=", "**kwargs", "Trainer(num_nodes=...)"],
        id="1.6's DDPStrategy forwarded num_nodes= to torch's DDP already: a TODO naming the Trainer flag",
    ),
    pytest.param(
        "from pytorch_lightning.profiler import PyTorchProfiler\n\np = PyTorchProfiler(profiled_functions=['f'])\n",
        ["passes profiled_functions= on through **kwargs", "record_function"],
        id="a keyword the target forwards through **kwargs: the TODO says what to do instead",
    ),
    pytest.param(
        "from pytorch_lightning.loggers import LightningLoggerBase\n\n\nclass Mine(LightningLoggerBase):\n"
        "    def __init__(self):\n        super().__init__(agg_key_funcs={'loss': min})\n",
        ["Logger takes no agg_key_funcs=", "aggregate the metrics yourself"],
        id="a logger's aggregation keywords: 2.x's Logger has object's __init__ (a signature the recording lacks)",
    ),
    pytest.param(
        HEAD + "trainer.fit(model, train_dataloader=a, train_dataloaders=b)\n",
        ["takes no train_dataloader="],
        id="old and new keyword both given: no rename, a TODO",
    ),
    pytest.param(
        "from pytorch_lightning.callbacks import EarlyStopping\n\nstop = EarlyStopping(patience=3)\n",
        ["EarlyStopping requires monitor=", "early_stop_on"],
        id="a parameter 1.x defaulted and the target requires: EarlyStopping() without monitor=",
    ),
    pytest.param(
        "from pytorch_lightning.profiler import SimpleProfiler\n\np = SimpleProfiler(output_filename='p.txt')\n",
        ["SimpleProfiler takes no output_filename=", "dirpath= and filename="],
        id="a class the target keeps elsewhere (profilers): its keywords still count, with what to pass instead",
    ),
    pytest.param(
        "from pytorch_lightning.callbacks import ModelCheckpoint\n\nc = ModelCheckpoint(filepath='out', period=2)\n",
        ["takes no filepath=", "dirpath= (the folder) and filename="],
        id="pre-1.5 ModelCheckpoint keywords: the TODO names what to pass for filepath= (period= is renamed)",
    ),
    pytest.param(
        MODULE + "        self.log('loss', 1.0, tbptt_reduce_fx=torch.mean)\n",
        ["LightningModule.log takes no tbptt_reduce_fx="],
        id="self.log's keywords gone in 1.6",
    ),
    pytest.param(
        MODULE + "        self.log('metrics', {'acc': acc, 'f1': f1})\n",
        ["takes no dict value", "log_dict"],
        id="self.log of a dict: 2.6.6 raises 'dict values cannot be logged'",
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
    pytest.param(
        "import pytorch_lightning as pl\n\n\nclass Mine:\n    def step(self):\n"
        "        self.log('loss', 1.0, sync_dist_op='sum')\n",
        id="self.log of a class that is no LightningModule",
    ),
    pytest.param(
        "import pytorch_lightning as pl\n\n\nclass Mine(Base):\n    def __init__(self):\n"
        "        super().__init__(every_n_val_epochs=2)\n",
        id="super().__init__ of a class with no Lightning base",
    ),
    pytest.param(
        "from pytorch_lightning.callbacks import EarlyStopping\n\nstop = EarlyStopping('val_loss')\n",
        id="monitor given by position",
    ),
    pytest.param(
        "from pytorch_lightning.callbacks import EarlyStopping\n\nstop = EarlyStopping(**config)\n",
        id="arguments from a mapping: unknown, nothing said",
    ),
    pytest.param(
        "from pytorch_lightning.cli import LightningCLI\n\ncli = LightningCLI(M, seed_everything_default=42)\n",
        id="a seed that means the same on both sides",
    ),
    pytest.param(
        "def is_overridden(name, model=None): ...\n\n\nimport pytorch_lightning\nok = is_overridden('x', model=m)\n",
        id="a project's own is_overridden keeps model=",
    ),
    pytest.param(
        "import pytorch_lightning as pl\nfrom mine import Cluster\n\nc = Cluster(num_nodes=2, sync_batchnorm=True)\n",
        id="num_nodes= of a class that is no Lightning strategy",
    ),
    pytest.param(
        "import pytorch_lightning as pl\n\n\nclass Mine(Base):\n    def __init__(self):\n"
        "        super().__init__(agg_key_funcs={})\n",
        id="agg_key_funcs= to a base that is not Lightning's",
    ),
]

#: A strategy's num_nodes=/sync_batchnorm= is dropped (a fix) and, where the value differs from the Trainer's flag in
#: the same statement or none is seen there, reported: 1.x overwrote it with the Trainer's (run on real 1.5.10).
DROPPED = [
    pytest.param(
        "from pytorch_lightning.plugins import DDPPlugin\n\nplugin = DDPPlugin(num_nodes=2)\n",
        "from pytorch_lightning.strategies import DDPStrategy\n\nplugin = DDPStrategy()\n",
        ["had no effect in 1.x", "not seen here", "Trainer(num_nodes=2)"],
        id="no Trainer call in sight: reported",
    ),
    pytest.param(
        "from pytorch_lightning import Trainer\nfrom pytorch_lightning.plugins import DDPPlugin\n\n"
        "trainer = Trainer(strategy=DDPPlugin(num_nodes=2))\n",
        "from pytorch_lightning import Trainer\nfrom pytorch_lightning.strategies import DDPStrategy\n\n"
        'trainer = Trainer(strategy=DDPStrategy(), accelerator="cpu", devices=1)\n',
        ["Trainer(num_nodes=1) here overrode it"],
        id="the Trainer's default differs: reported",
    ),
    pytest.param(
        "from pytorch_lightning import Trainer\nfrom pytorch_lightning.plugins import DDPPlugin\n\n"
        "trainer = Trainer(strategy=DDPPlugin(sync_batchnorm=True), sync_batchnorm=False)\n",
        "from pytorch_lightning import Trainer\nfrom pytorch_lightning.strategies import DDPStrategy\n\n"
        'trainer = Trainer(strategy=DDPStrategy(), sync_batchnorm=False, accelerator="cpu", devices=1)\n',
        ["Trainer(sync_batchnorm=False) here overrode it"],
        id="the Trainer's flag written and different: reported",
    ),
]


@pytest.mark.parametrize(("before", "after", "named"), DROPPED)
def test_dropped_and_reported(before: str, after: str, named: list[str]) -> None:
    outcome = check_transformed(before, after, target="2.6")
    found = [f for f in outcome.findings if f.rule == RULE]
    assert sorted(f.kind for f in found) == ["fix", "report"]
    (report,) = [f for f in found if f.kind == "report"]
    for text in named:
        assert text in report.message


@pytest.mark.parametrize(("before", "after"), TRANSFORMED)
def test_transformed(before: str, after: str) -> None:
    outcome = check_transformed(before, after, target="2.6")
    assert {f.kind for f in outcome.findings if f.rule == RULE} == {"fix"}


@pytest.mark.parametrize(("source", "named"), TODO)
def test_todo(source: str, named: list[str]) -> None:
    outcome = run(source, "2.6")
    (found,) = [f for f in outcome.findings if f.rule == RULE and f.kind == "todo"]
    for text in named:
        assert text in found.message


@pytest.mark.parametrize("source", NOOP)
def test_noop(source: str) -> None:
    assert not [f for f in run(source, "2.6").findings if f.rule == RULE]


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
