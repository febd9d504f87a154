"""Rule ``removed_attributes``: a read of an attribute the target's Trainer, strategies, accelerators, precision plugins
or connectors lack gets one TODO on its line naming what replaced it; nothing is rewritten, and what the code does not
show to be a Lightning object is left alone.

Every attribute a row flags was checked absent on a real 2.6.6 Trainer (``hasattr`` on it, its strategy, accelerator,
precision plugin and connectors: ``tests/legacy_api/test_attributes.py``), and present on the 1.5.10 recording.
"""

from __future__ import annotations

import re
import textwrap

import pytest

from codemods.project.prefilter import matching_lines
from codemods.rules.removed_attributes import _visit
from legacy_api.vocabulary import attributes
from tests.codemods.helpers import exercised, run

RULE = "removed_attributes"
CALLBACK = (
    "import pytorch_lightning as pl\n\n\nclass C(pl.Callback):\n    def on_train_end(self, trainer, pl_module):\n"
)


def _in_hook(*lines: str) -> str:
    return CALLBACK + "".join(f"        {line}\n" for line in lines)


TODO = [
    pytest.param(
        _in_hook("print(trainer.progress_bar_dict)"),
        "Trainer.progress_bar_dict is gone in 1.7: trainer.progress_bar_callback.get_metrics",
        id="Trainer.progress_bar_dict names the progress bar callback",
    ),
    pytest.param(
        _in_hook("if trainer.training_type_plugin.should_rank_save_checkpoint:", "    pass"),
        "Strategy.should_rank_save_checkpoint is gone in 1.6",
        id="trainer.training_type_plugin.X, which trainer_properties makes trainer.strategy.X: X checked on Strategy",
    ),
    pytest.param(
        _in_hook("on_gpu = self.trainer.strategy.on_gpu"),
        "Strategy.on_gpu is gone in 1.6: strategy.root_device.type == 'cuda'",
        id="self.trainer.strategy.on_gpu",
    ),
    pytest.param(
        _in_hook("conn = trainer._accelerator_connector", "n = conn.num_processes"),
        "AcceleratorConnector.num_processes is gone in 1.6: num_processes counted CPU processes",
        id="a connector read through a local variable takes the properties table's words",
    ),
    pytest.param(
        _in_hook("conn = trainer._accelerator_connector", "level = conn.amp_level"),
        "AcceleratorConnector.amp_level is gone in 1.6: nothing: apex is gone in 2.0",
        id="a connector attribute outside the properties table",
    ),
    pytest.param(
        _in_hook("path = trainer.checkpoint_connector.resume_from_checkpoint_fit_path"),
        "Trainer.checkpoint_connector is gone in 1.6: private since 1.6 (trainer._checkpoint_connector)",
        id="a gone holder gets the one TODO, not what is read from it",
    ),
    pytest.param(
        _in_hook("path = trainer._checkpoint_connector.resume_from_checkpoint_fit_path"),
        "CheckpointConnector.resume_from_checkpoint_fit_path is gone after 1.9: trainer.ckpt_path",
        id="the private 2.x connector is checked against a real 2.6.6 one",
    ),
    pytest.param(
        _in_hook("device = trainer.accelerator.root_device"),
        "Accelerator.root_device is gone in 1.6: trainer.strategy.root_device",
        id="an accelerator pass-through names the strategy",
    ),
    pytest.param(
        _in_hook("scaler = trainer.accelerator.scaler"),
        "Accelerator.scaler is gone in 1.6: trainer.precision_plugin.scaler",
        id="the accelerator's scaler is the precision plugin's",
    ),
    pytest.param(
        _in_hook("trainer.train_loop.running_loss"),
        "Trainer.train_loop is gone in 1.6: trainer.fit_loop",
        id="Trainer.train_loop (removed in 1.6)",
    ),
    pytest.param(
        "import pytorch_lightning as pl\n\ntrainer = pl.Trainer()\nsize = trainer.tuner.scale_batch_size(None)\n",
        "Trainer.tuner is gone in 2.0: pytorch_lightning.tuner.Tuner(trainer)",
        id="a variable assigned from Trainer(...), a call through a removed attribute",
    ),
    pytest.param(
        "from pytorch_lightning.plugins import DDPPlugin\n\n\ndef f(plugin: DDPPlugin):\n    return plugin.on_tpu\n",
        "Strategy.on_tpu is gone in 1.6: isinstance(trainer.accelerator, XLAAccelerator)",
        id="a parameter annotated with a strategy class",
    ),
    pytest.param(
        "from pytorch_lightning.plugins import DDPPlugin\n\nplugin = DDPPlugin()\nprint(plugin.on_gpu)\n",
        "Strategy.on_gpu is gone in 1.6",
        id="an instance made by a strategy class",
    ),
    pytest.param(
        "from pytorch_lightning.plugins import DDPPlugin\n\n\nclass P(DDPPlugin):\n    def f(self):\n"
        "        return self.on_tpu\n",
        "Strategy.on_tpu is gone in 1.6",
        id="self in a user's subclass, for an attribute it does not define",
    ),
    pytest.param(
        _in_hook("precision = trainer.precision_plugin.amp_level"),
        "Precision.amp_level is gone in 2.0: nothing: apex is gone in 2.0",
        id="a precision plugin attribute",
    ),
]


@pytest.mark.parametrize(("source", "message"), TODO)
def test_todo_rows(source: str, message: str) -> None:
    outcome = run(source, "2.6")
    found = [f for f in outcome.findings if f.rule == RULE]
    assert len(found) == 1, [f.message for f in outcome.findings]
    assert found[0].kind == "todo" and message in found[0].message
    assert outcome.source.count(f"[{RULE}]") == 1
    assert run(outcome.source, "2.6").source == outcome.source, "a second run must change nothing"


NOOP = [
    pytest.param(
        "class A:\n    def f(self):\n        return self.gpus, self.progress_bar_dict\n", id="self on a user class"
    ),
    pytest.param(
        "import pytorch_lightning as pl\n\n\ndef f(cfg):\n    return cfg.trainer.progress_bar_dict\n",
        id="a config node named trainer",
    ),
    pytest.param(
        _in_hook("print(trainer.callbacks, trainer.profiler, trainer.fast_dev_run, trainer.overfit_batches)"),
        id="attributes a real 2.6.6 Trainer has that its recording misses",
    ),
    pytest.param(
        _in_hook(
            "trainer.training_type_plugin.reduce(1)", "trainer.strategy.barrier()", "trainer.logger.log_metrics({})"
        ),
        id="attributes the target has",
    ),
    pytest.param(
        "from pytorch_lightning.plugins import DDPPlugin\n\n\nclass P(DDPPlugin):\n"
        "    def __init__(self):\n        self.on_tpu = False\n\n"
        "    def on_gpu(self):\n        return True\n\n"
        "    def f(self):\n        return self.on_gpu(), self.on_tpu\n",
        id="a user's subclass that defines the attribute itself",
    ),
    pytest.param(_in_hook("trainer.weights_summary = None"), id="a store reads nothing"),
    pytest.param(
        "import pytorch_lightning as pl\n\n\ndef f(model):\n    return model.trainer_config.progress_bar_dict\n",
        id="not provably a Trainer",
    ),
    pytest.param(_in_hook("strategy = pl_module.strategy", "strategy.on_gpu"), id="a module's attribute of the name"),
]


@pytest.mark.parametrize("source", NOOP)
def test_noop_rows(source: str) -> None:
    outcome = run(source, "2.6")
    assert not [f for f in outcome.findings if f.rule == RULE], [f.message for f in outcome.findings]


@pytest.mark.parametrize(
    ("line", "rule"),
    [
        pytest.param("n = trainer.num_gpus", "trainer_properties", id="Trainer.num_gpus stays trainer_properties'"),
        pytest.param(
            "x = trainer._accelerator_connector.use_ddp", "trainer_properties", id="its nested connector rows too"
        ),
        pytest.param("trainer.accelerator.barrier()", "trainer_properties", id="and the accelerator pass-throughs"),
    ],
)
def test_what_trainer_properties_owns_gets_no_second_todo(line: str, rule: str) -> None:
    outcome = run(_in_hook(line), "2.6")
    assert [f.rule for f in outcome.findings if f.kind == "todo" or f.rule == RULE] in ([rule], [])
    assert not [f for f in outcome.findings if f.rule == RULE]


def test_the_strategy_rewrite_stays_and_the_read_gets_the_todo() -> None:
    outcome = run(_in_hook("flag = trainer.training_type_plugin.should_rank_save_checkpoint"), "2.6")
    assert "flag = trainer.strategy.should_rank_save_checkpoint" in outcome.source
    assert outcome.source.count("[removed_attributes]") == 1


@pytest.mark.parametrize(
    ("target", "flagged"),
    [
        pytest.param("1.6", False, id="Trainer.progress_bar_dict still there at 1.6"),
        pytest.param("1.7", True, id="gone at 1.7"),
        pytest.param("2.6", True, id="and after"),
    ],
)
def test_the_target_decides(target: str, flagged: bool) -> None:
    outcome = run(_in_hook("print(trainer.progress_bar_dict)"), target)
    assert bool([f for f in outcome.findings if f.rule == RULE]) is flagged


def test_the_todo_stands_above_the_statement() -> None:
    source = _in_hook("if True:", "    print(trainer.progress_bar_dict)")
    expected = CALLBACK + textwrap.indent(
        "if True:\n"
        "    # TODO(migrate-trainer): Trainer.progress_bar_dict is gone in 1.7: "
        "trainer.progress_bar_callback.get_metrics(trainer, pl_module) [removed_attributes]\n"
        "    print(trainer.progress_bar_dict)\n",
        " " * 8,
    )
    assert run(source, "2.6").source == expected


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)


def test_the_pattern_is_the_vocabulary_written_as_a_trie() -> None:
    """The pattern of the lines this rule visits matches the same lines as the plain alternation of its attribute
    names (which Python's ``re`` scans 16 times slower): each name, spaced, and names that only start or end alike."""
    names = sorted(attributes())
    flat = re.compile(r"\.\s*(?:" + "|".join(map(re.escape, names)) + r")\b")
    probe = "".join(f"a.{n}\nb. {n}x\nc.\n  {n}\nd.{n}_\ne.{n[:-1]}\nf.x{n}\n" for n in names)
    assert matching_lines(probe, _visit()) == matching_lines(probe, flat)
