"""Rule ``removed_hooks``: a hook of LightningModule, LightningDataModule or Callback that the target no longer calls,
or calls with other arguments, gets one TODO above its ``def``; the code is never changed, except where all the target
objects to is a parameter 1.x always passed the same value (``dataloader_idx`` of the training batch hooks, 0): it
gets that value as its default (``legacy_api.hooks.CONSTANT_ARGUMENTS``).

Each row's fact was checked in the real 1.5.10 and 2.6.6 and is in the recorded surfaces (``legacy_api.surface``).
"""

from __future__ import annotations

import re

import pytest

from legacy_api.hooks import SUCCESSORS, members
from legacy_api.surface import RELEASES
from tests.codemods.helpers import exercised, run

RULE = "removed_hooks"

MODULE = "import pytorch_lightning as pl\n\n\nclass M(pl.LightningModule):\n{body}"
CALLBACK = "from pytorch_lightning.callbacks import Callback\n\n\nclass C(Callback):\n{body}"

TODO = [
    pytest.param(
        CALLBACK.format(
            body="    def on_save_checkpoint(self, trainer, pl_module, checkpoint):\n"
            "        if trainer.is_global_zero:\n            return {'seen': self.seen}\n"
        ),
        "2.6",
        ["does not keep what Callback.on_save_checkpoint returns", "state_dict()", "callback_state"],
        id="a state returned from Callback.on_save_checkpoint is dropped since 2.0 (1.8-1.9 raised)",
    ),
    pytest.param(
        CALLBACK.format(body="    def on_load_checkpoint(self, checkpoint):\n        pass\n"),
        "2.6",
        ["on_load_checkpoint(self, trainer, pl_module, checkpoint)", "takes 1"],
        id="fewer parameters than the target always passes: the pre-1.4.9 on_load_checkpoint(self, checkpoint)",
    ),
    pytest.param(
        MODULE.format(
            body="    def validation_step(self, batch, batch_idx, dataloader_idx=0):\n        return 1\n\n"
            "    def validation_epoch_end(self, outputs):\n        self.log('x', len(outputs))\n"
        ),
        "2.6",
        ["validation_epoch_end", "removed in 2.0", "on_validation_epoch_end", "not rewritten", "several dataloaders"],
        id="validation_epoch_end that epoch_end_hooks cannot rewrite exactly: the TODO names the successor and why",
    ),
    pytest.param(
        MODULE.format(body="    def training_epoch_end(self, outputs, extra):\n        pass\n"),
        "2.0",
        ["training_epoch_end", "on_train_epoch_end", "not rewritten"],
        id="training_epoch_end with another signature at target 2.0",
    ),
    pytest.param(
        MODULE.format(body="    def training_step(self, batch, batch_idx, optimizer_idx):\n        return None\n"),
        "2.6",
        ["optimizer_idx", "manual optimization"],
        id="training_step's optimizer_idx is no longer passed",
    ),
    pytest.param(
        MODULE.format(
            body="    def training_step(self, batch, batch_idx, optimizer_idx=0):\n        return None\n\n"
            "    def configure_optimizers(self):\n        optims = [optim.Adam(self.a.parameters())]\n"
            "        if self.second:\n            optims.append(optim.Adam(self.b.parameters()))\n"
            "        return optims\n"
        ),
        "2.6",
        ["optimizer_idx", "builds several optimizers", "manual optimization"],
        id="optimizer_idx with a default where configure_optimizers builds several (1.x passed it to each)",
    ),
    pytest.param(
        MODULE.format(
            body="    def optimizer_step(self, epoch, batch_idx, optimizer, optimizer_idx, optimizer_closure,\n"
            "                       on_tpu=False, using_native_amp=False, using_lbfgs=False):\n"
            "        optimizer.step(closure=optimizer_closure) if optimizer_idx == 0 else None\n"
        ),
        "2.6",
        ["optimizer_step(self, epoch, batch_idx, optimizer, optimizer_closure)", "optimizer_idx", "it reads"],
        id="the 1.x optimizer_step signature would take the closure as optimizer_idx",
    ),
    pytest.param(
        CALLBACK.format(body="    def on_keyboard_interrupt(self, trainer, pl_module, extra):\n        pass\n"),
        "2.6",
        ["on_keyboard_interrupt", "on_exception"],
        id="on_keyboard_interrupt with a signature of its own -> a TODO naming on_exception",
    ),
    pytest.param(
        MODULE.format(body="    def on_epoch_end(self):\n        pass\n"),
        "2.6",
        ["on_epoch_end", "on_train_epoch_end"],
        id="on_epoch_end names the epoch hooks of each stage",
    ),
    pytest.param(
        "from pytorch_lightning import LightningDataModule\n\n\nclass D(LightningDataModule):\n"
        "    def on_save_checkpoint(self, checkpoint):\n        checkpoint['n'] = 1\n",
        "2.6",
        ["LightningDataModule.on_save_checkpoint", "state_dict(self)"],
        id="a DataModule's on_save_checkpoint, though LightningModule keeps one with the same parameters",
    ),
    pytest.param(
        "from pytorch_lightning.callbacks import BaseFinetuning\n\n\nclass F(BaseFinetuning):\n"
        "    def finetune_function(self, pl_module, epoch, optimizer, opt_idx):\n        print(opt_idx)\n",
        "2.6",
        ["finetune_function(self, pl_module, epoch, optimizer)", "opt_idx"],
        id="BaseFinetuning.finetune_function's opt_idx",
    ),
]

#: Plugin bases another rule renames (NativeMixedPrecisionPlugin -> MixedPrecision, DDPPlugin -> DDPStrategy): the
#: hook is still flagged, by the legacy name of its base.
TODO_BESIDE_RENAMES = [
    pytest.param(
        "from pytorch_lightning.plugins import NativeMixedPrecisionPlugin\n\n\nclass P(NativeMixedPrecisionPlugin):\n"
        "    def dispatch(self, trainer):\n        pass\n",
        "2.6",
        ["PrecisionPlugin.dispatch", "removed in 2.0"],
        id="a subclass of a PrecisionPlugin subclass: the nearest hook base in its recorded bases",
    ),
    pytest.param(
        "from pytorch_lightning.plugins import DDPPlugin\n\n\nclass S(DDPPlugin):\n"
        "    def backward(self, closure_loss, optimizer, optimizer_idx, *args, **kwargs):\n        pass\n",
        "2.6",
        ["optimizer_idx", "backward"],
        id="a DDPPlugin subclass (renamed DDPStrategy by strategy_plugins) is a Strategy",
    ),
]

NOOP = [
    pytest.param(
        CALLBACK.format(
            body="    def on_save_checkpoint(self, trainer, pl_module, checkpoint):\n"
            "        checkpoint['seen'] = 1\n        return None\n"
        ),
        "2.6",
        id="on_save_checkpoint that writes into the checkpoint and returns nothing",
    ),
    pytest.param(
        CALLBACK.format(
            body="    def on_save_checkpoint(self, trainer, pl_module, checkpoint):\n"
            "        def state():\n            return {'seen': 1}\n\n        checkpoint['seen'] = state()\n"
        ),
        "2.6",
        id="a nested function's return is not the hook's",
    ),
    pytest.param(
        CALLBACK.format(body="    def on_save_checkpoint(self, trainer, pl_module, checkpoint):\n        return {}\n"),
        "1.7",
        id="1.7 still kept the returned state",
    ),
    pytest.param(
        "from pytorch_lightning import Trainer\n\n\nclass Mine:\n"
        "    def on_save_checkpoint(self, trainer, pl_module, checkpoint):\n        return {'seen': 1}\n",
        "2.6",
        id="the user's own class with a method of that name",
    ),
    pytest.param(
        CALLBACK.format(
            body="    def on_validation_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):\n        pass\n"
        ),
        "2.6",
        id="dataloader_idx left out: 2.x passes it only with several dataloaders",
    ),
    pytest.param(
        CALLBACK.format(body="    def on_load_checkpoint(self, *args):\n        pass\n"),
        "2.6",
        id="*args takes whatever is passed",
    ),
    pytest.param(MODULE.format(body="    def validation_epoch_end(self, outputs):\n        pass\n"), "1.9", id="1.9"),
    pytest.param(
        MODULE.format(body="    def training_step(self, batch, batch_idx):\n        return None\n"),
        "2.6",
        id="2.x signature",
    ),
    pytest.param(
        MODULE.format(body="    def on_train_epoch_end(self):\n        pass\n"), "2.6", id="the successor itself"
    ),
    pytest.param(
        MODULE.format(body="    def training_step(self, batch, batch_idx, optimizer_idx=0):\n        return None\n"),
        "2.6",
        id="optimizer_idx with a default and one optimizer: neither 1.x nor 2.x passes it",
    ),
    pytest.param(
        MODULE.format(
            body="    def training_step(self, batch, batch_idx, optimizer_idx=0):\n        return None\n\n"
            "    def configure_optimizers(self):\n        return torch.optim.Adam(self.parameters())\n"
        ),
        "2.6",
        id="optimizer_idx with a default next to a configure_optimizers that builds one optimizer",
    ),
    pytest.param(
        "class M:\n    def validation_epoch_end(self, outputs):\n        pass\n", "2.6", id="not a Lightning class"
    ),
    pytest.param(
        MODULE.format(body="    def helper(self, outputs):\n        pass\n"), "2.6", id="a method of the user's own"
    ),
    pytest.param(
        "from pytorch_lightning import Trainer\n\n\nclass PrecisionPlugin:\n    def dispatch(self, trainer):\n"
        "        pass\n",
        "2.6",
        id="the user's own class named PrecisionPlugin",
    ),
    pytest.param(
        "from pytorch_lightning.callbacks import BaseFinetuning\n\n\nclass F(BaseFinetuning):\n"
        "    def finetune_function(self, pl_module, epoch, optimizer):\n        pass\n",
        "2.6",
        id="finetune_function as 2.x calls it",
    ),
]


DEFAULTED = [
    pytest.param(
        CALLBACK.format(
            body="    def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx, dataloader_idx):\n"
            "        pass\n"
        ),
        "dataloader_idx):",
        "dataloader_idx=0):",
        id="a Callback's on_train_batch_end with dataloader_idx gets the 0 1.5.10 passed as its default",
    ),
    pytest.param(
        MODULE.format(
            body="    def on_train_batch_start(self, batch, batch_idx, dataloader_idx):\n"
            "        return None if dataloader_idx else -1\n"
        ),
        "dataloader_idx):",
        "dataloader_idx=0):",
        id="a module's on_train_batch_start that reads dataloader_idx reads the 0 it always got",
    ),
]


# The evaluation and prediction batch hooks: 1.5.10 passed dataloader_idx always (0 with one dataloader), 2.0 only
# with several (legacy_api.hooks.OPTIONAL_ARGUMENTS): with one, 2.6.6 raises a RuntimeError for the module's hook and
# a TypeError for a callback's. Run both sides: tests/data/programs/evaluation_batch_hooks.py.
DEFAULTED += [
    pytest.param(
        CALLBACK.format(
            body="    def on_validation_batch_end(self, trainer, pl_module, outputs, batch, batch_idx, dataloader_idx):\n"
            "        pass\n"
        ),
        "dataloader_idx):",
        "dataloader_idx=0):",
        id="a Callback's on_validation_batch_end that requires dataloader_idx gets the 0 1.5.10 passed with one loader",
    ),
    pytest.param(
        MODULE.format(
            body="    def on_test_batch_start(self, batch, batch_idx, dataloader_idx: int):\n"
            "        self.seen = dataloader_idx\n"
        ),
        "dataloader_idx: int):",
        "dataloader_idx: int = 0):",
        id="a module's annotated on_test_batch_start gets ': int = 0'",
    ),
    pytest.param(
        CALLBACK.format(
            body="    def on_predict_batch_end(self, trainer, pl_module, outputs, batch, batch_idx, dataloader_idx):\n"
            "        pass\n"
        ),
        "dataloader_idx):",
        "dataloader_idx=0):",
        id="a Callback's on_predict_batch_end likewise",
    ),
]
NOOP += [
    pytest.param(
        CALLBACK.format(
            body="    def on_validation_batch_end(self, trainer, pl_module, outputs, batch, batch_idx, dataloader_idx):\n"
            "        pass\n"
        ),
        "1.9",
        id="1.9 still passed dataloader_idx to the evaluation batch hooks with one dataloader",
    ),
    pytest.param(
        MODULE.format(body="    def validation_step(self, batch, batch_idx, dataloader_idx):\n        pass\n"),
        "2.6",
        id="validation_step got dataloader_idx only with several dataloaders in 1.5.10 too",
    ),
]


# A trailing parameter the target no longer passes goes where the body never reads it: 2.6.6 calls a Callback's
# on_train_epoch_end with (trainer, pl_module) only, as 1.5.10 already did (its callback_hook.py; a hook that still
# required outputs raised there too: code written for 1.4, which passed it to a signature that named it).
DEFAULTED += [
    pytest.param(
        CALLBACK.format(body="    def on_train_epoch_end(self, trainer, pl_module, outputs):\n        pass\n"),
        "pl_module, outputs):",
        "pl_module):",
        id="a Callback's on_train_epoch_end that never reads outputs loses the parameter",
    ),
    pytest.param(
        MODULE.format(body="    def on_train_epoch_end(self, outputs) -> None:\n        self.log('x', 1.0)\n"),
        "(self, outputs)",
        "(self)",
        id="a module's on_train_epoch_end(self, outputs) that never reads it",
    ),
    pytest.param(
        "from pytorch_lightning.callbacks import BaseFinetuning\n\n\nclass F(BaseFinetuning):\n"
        "    def finetune_function(self, pl_module, epoch, optimizer, opt_idx):\n        pass\n",
        ", opt_idx):",
        "):",
        id="BaseFinetuning.finetune_function's unread opt_idx (2.6.6 calls it for every optimizer, as 1.5.10 did)",
    ),
    pytest.param(
        CALLBACK.format(
            body="    def on_before_optimizer_step(\n        self,\n        trainer,\n        pl_module,\n"
            "        optimizer,\n        opt_idx: int,\n    ) -> None:\n        pass\n"
        ),
        "        optimizer,\n        opt_idx: int,\n    ) -> None:",
        "        optimizer,\n    ) -> None:",
        id="one parameter a line, with a trailing comma: the layout stays",
    ),
]
# Callback.on_keyboard_interrupt: 1.5.10 ran it on the first KeyboardInterrupt, then on_exception; 2.6.6 runs
# on_exception only (tests/data/programs/keyboard_interrupt_callback.py prints the same on both, migrated).
DEFAULTED += [
    pytest.param(
        CALLBACK.format(body="    def on_keyboard_interrupt(self, trainer, pl_module):\n        pass\n"),
        "def on_keyboard_interrupt(self, trainer, pl_module):\n        pass\n",
        "def on_exception(self, trainer, pl_module, exception):\n"
        "        if not isinstance(exception, KeyboardInterrupt):\n            return\n        pass\n",
        id="a Callback's on_keyboard_interrupt becomes on_exception for a KeyboardInterrupt",
    ),
]
TODO += [
    pytest.param(
        CALLBACK.format(
            body="    def on_keyboard_interrupt(self, trainer, pl_module):\n        pass\n\n"
            "    def on_exception(self, trainer, pl_module, exception):\n        pass\n"
        ),
        "2.6",
        ["on_exception(self, trainer, pl_module, exception)"],
        id="on_keyboard_interrupt beside the class's own on_exception keeps its TODO",
    ),
    pytest.param(
        CALLBACK.format(
            body="    def on_train_epoch_end(self, trainer, pl_module, outputs):\n        print(outputs)\n"
        ),
        "2.6",
        ["outputs is no longer passed there"],
        id="a Callback's on_train_epoch_end that reads outputs keeps its TODO",
    ),
]


@pytest.mark.parametrize(("source", "old", "new"), DEFAULTED)
def test_a_parameter_1x_always_passed_the_same_gets_it_as_default(source: str, old: str, new: str) -> None:
    outcome = run(source, "2.6")
    found = [f for f in outcome.findings if f.rule == RULE]
    assert [f.kind for f in found] == ["fix"], [f.message for f in outcome.findings]
    assert outcome.source == source.replace(old, new)
    assert run(outcome.source, "2.6").source == outcome.source, "a second run changes nothing"


@pytest.mark.parametrize(("source", "target", "named"), TODO)
def test_todo(source: str, target: str, named: list[str]) -> None:
    outcome = run(source, target)
    found = [f for f in outcome.findings if f.rule == RULE]
    assert [f.kind for f in found] == ["todo"], [f.message for f in outcome.findings]
    for text in named:
        assert text in found[0].message
    assert outcome.source.count(f"[{RULE}]") == 1
    kept = "".join(line for line in outcome.source.splitlines(True) if "TODO(migrate-trainer)" not in line)
    assert kept == source  # flagged, never rewritten


@pytest.mark.parametrize(("source", "target", "named"), TODO_BESIDE_RENAMES)
def test_todo_beside_renames(source: str, target: str, named: list[str]) -> None:
    found = [f for f in run(source, target).findings if f.rule == RULE]
    assert [f.kind for f in found] == ["todo"]
    for text in named:
        assert text in found[0].message


@pytest.mark.parametrize(("source", "target"), NOOP)
def test_noop(source: str, target: str) -> None:
    outcome = run(source, target)
    assert not [f for f in outcome.findings if f.rule == RULE]


@pytest.mark.parametrize(("base", "hook"), sorted(SUCCESSORS))
def test_each_removed_hook_is_gone_and_its_successor_exists(base: str, hook: str) -> None:
    """The table's facts hold on the recorded releases: 1.x had the hook, the newest release has not, and the
    successor's first name is a member of the same class there (or the successor says "nothing")."""
    newest = RELEASES[-1]
    assert any(hook in members(release, base) for release in RELEASES if release.startswith("1."))
    assert hook not in members(newest, base)
    successor = SUCCESSORS[(base, hook)]
    first = re.match(r"\w+", successor).group()  # type: ignore[union-attr]
    if first not in ("nothing", "the") and not successor.startswith(f"{first}()"):
        assert first in members(newest, base), first


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
