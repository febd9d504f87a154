"""The rules' screens (``Rule.screen``): of the lines a rule's own pattern matches, the Python pass leaves out those
where the rule provably does nothing, so that ordinary model code (``super().__init__()``, ``self.log(...)``,
``def training_step(self, batch, batch_idx)``, ``os.path.join(...)``) is not parsed by libcst for it.

Each row is a line a pattern matches: whether the screen keeps it, and whether the rule acts there. Every row also
runs the whole transform with the screen and without it: the same output and findings, byte for byte.
"""

from __future__ import annotations

import ast
import dataclasses

import pytest

from codemods.frontends.python import transform_python
from codemods.frontends.python.context import FileContext, Site
from codemods.frontends.python.pipeline import build_hooks
from codemods.frontends.python.qualnames import analyse
from codemods.frontends.python.trial import flags_to_migrate
from codemods.model import Options
from codemods.rules import REGISTRY

_MODULE = "import pytorch_lightning as pl\n\n\nclass M(pl.LightningModule):\n"
_INIT = "    def __init__(self):\n        super().__init__()\n"
_STEP = "    def training_step(self, batch, batch_idx):\n        loss = self(batch)\n        {}\n        return loss\n"
_EARLY = "from pytorch_lightning.callbacks import EarlyStopping\n\n\nclass E(EarlyStopping):\n" + _INIT
_DDP = "from pytorch_lightning.plugins import DDPPlugin\n\n\nclass P(DDPPlugin):\n"
_CALLBACK = "import pytorch_lightning as pl\n\n\nclass C(pl.Callback):\n    def __init__(self, gpus=None):\n"

# rule, source, line, whether the screen keeps the line, whether the rule acts there
ROWS = [
    pytest.param("positional_arguments", _MODULE + _INIT, 6, False, False, id="super().__init__() passes no position"),
    pytest.param(
        "positional_arguments",
        _MODULE + "    def __init__(self, **kwargs):\n        super().__init__(**kwargs)\n",
        6,
        False,
        False,
        id="super().__init__(**kwargs) passes no position either",
    ),
    pytest.param(
        "positional_arguments",
        _DDP + "    def __init__(self, devices):\n        super().__init__(devices, 1)\n",
        6,
        True,
        True,
        id="super().__init__(devices, 1) in a DDPPlugin subclass binds other parameters",
    ),
    pytest.param("removed_keywords", _MODULE + _INIT, 6, False, False, id="LightningModule.__init__ requires nothing"),
    pytest.param("removed_keywords", _EARLY, 6, True, True, id="EarlyStopping() leaves out monitor, required in 2.x"),
    pytest.param(
        "removed_keywords",
        _MODULE + _STEP.format('self.log("loss", loss, on_step=True, prog_bar=True)'),
        7,
        False,
        False,
        id="self.log with keywords the target takes",
    ),
    pytest.param(
        "removed_keywords",
        _MODULE + _STEP.format('self.log("loss", loss, sync_dist_op="mean")'),
        7,
        True,
        True,
        id="self.log(sync_dist_op=) is renamed",
    ),
    pytest.param(
        "removed_keywords",
        _MODULE + _STEP.format('self.log("metrics", {"loss": loss})'),
        7,
        True,
        True,
        id="self.log of a dict value",
    ),
    pytest.param(
        "removed_keywords",
        "import pytorch_lightning as pl\n\n\ndef run(trainer, model, dl):\n    trainer.fit(model, train_dataloader=dl)\n",
        5,
        True,
        True,
        id="trainer.fit(train_dataloader=) is renamed",
    ),
    pytest.param(
        "removed_keywords",
        "import pytorch_lightning as pl\n\n\ndef run(trainer, model):\n    trainer.fit(model)\n",
        5,
        False,
        False,
        id="trainer.fit(model) passes nothing gone",
    ),
    pytest.param("removed_hooks", _MODULE + _STEP.format("pass"), 5, False, False, id="a hook with 2.x's parameters"),
    pytest.param(
        "removed_hooks",
        _MODULE + "    def training_step(self, batch, batch_idx, optimizer_idx):\n        return 1\n",
        5,
        True,
        True,
        id="training_step's optimizer_idx is no longer passed",
    ),
    pytest.param(
        "removed_hooks",
        "import pytorch_lightning as pl\n\n\nclass C(pl.Callback):\n    def on_train_start(self, trainer, pl_module):\n"
        "        pass\n",
        5,
        False,
        False,
        id="a callback hook with 2.x's parameters",
    ),
    pytest.param(
        "removed_hooks",
        "import pytorch_lightning as pl\n\n\nclass C(pl.Callback):\n    def on_load_checkpoint(self, checkpointed_state):\n"
        "        pass\n",
        5,
        True,
        True,
        id="a callback hook with 1.x's parameters",
    ),
    pytest.param(
        "removed_attributes",
        "import os\nimport pytorch_lightning as pl\n\n\ndef path(root):\n    return os.path.join(root, 'a')\n",
        6,
        False,
        False,
        id="os.path.join: os is a module import",
    ),
    pytest.param(
        "removed_attributes",
        "import pytorch_lightning as pl\n\n\ndef names(items):\n    return ', '.join(items)\n",
        5,
        False,
        False,
        id="a string's join",
    ),
    pytest.param(
        "removed_attributes",
        _CALLBACK + "        self.gpus = gpus\n",
        6,
        False,
        False,
        id="self.gpus in a class that defines gpus",
    ),
    pytest.param(
        "removed_attributes",
        "from pytorch_lightning import LightningDataModule\n\n\nclass Data(LightningDataModule):\n    pass\n\n\n"
        "data = Data.parse_argparser(args)\n",
        8,
        True,
        False,
        id="a removed argparse helper: rule argparse_flags reads the line this pattern marks",
    ),
    pytest.param(
        "removed_attributes",
        "from pytorch_lightning.plugins import DDPPlugin\n\n\ndef check(plugin: DDPPlugin):\n    return plugin.on_gpu\n",
        5,
        True,
        True,
        id="a parameter annotated with a Lightning class",
    ),
    pytest.param(
        "removed_attributes",
        "import os\nimport pytorch_lightning as pl\n\n\ndef f(t):\n    os = t\n    return os.path.join('a')\n",
        7,
        True,
        False,
        id="a name assigned in the module may hold anything: kept",
    ),
]


def _site(source: str, line: int, options: Options) -> Site:
    analysis = analyse(ast.parse(source), source)
    handlers, visitors = build_hooks(options)
    ctx = FileContext(options, handlers, visitors, analysis, scopes=[analysis.module], flag_trial=flags_to_migrate)
    return Site.at(ctx, line)


@pytest.mark.parametrize(("rule", "source", "line", "kept", "acts"), ROWS)
def test_screen(rule: str, source: str, line: int, kept: bool, acts: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    options = Options("2.6")
    found = REGISTRY[rule]
    assert found.visit is not None and found.visit().search(source.splitlines()[line - 1])
    assert found.screen is not None and found.screen(_site(source, line, options)) is kept
    screened = transform_python(source, options)
    assert any(finding.rule == rule for finding in screened.findings) is acts
    monkeypatch.setitem(REGISTRY, rule, dataclasses.replace(found, screen=None))
    assert transform_python(source, options) == screened
