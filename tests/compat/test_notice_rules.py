"""Every ``migrate-trainer`` rule a compat warning names exists in the codemod's registry, and every row of the shared
renames table names one, and a notice says "rewrites it" only where that rule rewrites (issue 27: a notice named a
rule that did not say what it claimed)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from codemods.frontends.python import transform_python
from codemods.model import Options
from codemods.rules import REGISTRY
from compat._warn import Notice
from legacy_api import rule_effects
from legacy_api.renames import RENAMES

COMPAT = Path(__file__).resolve().parents[2] / "compat"
#: ``rule="x"`` and ``RULE = "x"``/``_RULE = "x"`` literals in compat's sources.
_LITERAL = re.compile(r"""\b(?:rule\s*=\s*|_?RULE\s*=\s*)["'](\w+)["']""")


def _named() -> list[tuple[str, str]]:
    found = []
    for path in sorted(COMPAT.rglob("*.py")):
        for match in _LITERAL.finditer(path.read_text(encoding="utf-8")):
            found.append((path.relative_to(COMPAT).as_posix(), match.group(1)))
    return found


@pytest.mark.parametrize(("where", "rule"), _named(), ids=[f"{w}:{r}" for w, r in _named()])
def test_a_rule_a_notice_names_exists(where: str, rule: str) -> None:
    assert rule in REGISTRY, f"compat/{where} names rule {rule!r}, which migrate-trainer does not have"


def test_every_rename_row_names_a_rule() -> None:
    assert sorted({row.rule for row in RENAMES} - set(REGISTRY)) == []


# --- "rewrites it" only where the rule rewrites (legacy_api.rule_effects) -------------------------------------------
_PL = "import pytorch_lightning as pl\nfrom pytorch_lightning import Trainer\n"
_CALLBACK = "class C(pl.Callback):\n    def on_train_end(self, trainer, pl_module):\n"
#: One use of each TODO-only rule, and the options it needs.
TODO_ONLY_SAMPLES = [
    pytest.param(
        "accelerator_arguments",
        "from pytorch_lightning.accelerators import CPUAccelerator\n"
        "acc = CPUAccelerator(precision_plugin=p, training_type_plugin=s)\n",
        Options(),
        id="accelerator_arguments: CPUAccelerator(training_type_plugin=...)",
    ),
    pytest.param(
        "argparse_flags",
        _PL + "def f(args):\n    return Trainer.from_argparse_args(args)\n",
        Options(),
        id="argparse_flags: Trainer.from_argparse_args",
    ),
    pytest.param(
        "dataloader_iter_steps",
        _PL + "class M(pl.LightningModule):\n    def training_step(self, dataloader_iter, batch_idx): ...\n",
        Options(),
        id="dataloader_iter_steps: training_step(dataloader_iter, batch_idx)",
    ),
    pytest.param(
        "hparams_modules",
        _PL + "from torch import nn\n\n\nclass Lit(pl.LightningModule):\n"
        "    def __init__(self, net: nn.Module):\n        super().__init__()\n        self.save_hyperparameters()\n",
        Options(),
        id="hparams_modules: a network saved as a hyperparameter",
    ),
    pytest.param(
        "interactive_launch",
        _PL + "Trainer(strategy='ddp_spawn', accelerator='gpu', devices=2)\n",
        Options(interactive=True),
        id="interactive_launch: ddp_spawn in a notebook",
    ),
    pytest.param(
        "ipu_accelerator",
        _PL + "Trainer(accelerator='ipu', devices=4)\n",
        Options(),
        id="ipu_accelerator: accelerator='ipu'",
    ),
    pytest.param(
        "removed_attributes",
        _PL + _CALLBACK + "        print(trainer.progress_bar_dict)\n",
        Options(),
        id="removed_attributes: trainer.progress_bar_dict",
    ),
]
_TODO_LINE = re.compile(r"^[ \t]*# TODO\(migrate-trainer\).*\n", re.MULTILINE)


def test_every_todo_only_rule_has_a_sample() -> None:
    assert sorted(rule_effects.TODO_ONLY) == sorted(str(p.values[0]) for p in TODO_ONLY_SAMPLES)


@pytest.mark.parametrize(("rule", "source", "options"), TODO_ONLY_SAMPLES)
def test_a_todo_only_rule_leaves_the_code_as_it_was(rule: str, source: str, options: Options) -> None:
    assert rule in REGISTRY
    outcome = transform_python(source, replace(options, rules=frozenset({rule})))
    kinds = {finding.kind for finding in outcome.findings if finding.rule == rule}
    assert kinds == {"todo"}, outcome.findings
    assert _TODO_LINE.sub("", outcome.source) == source


NOTICE_TEXTS = [
    pytest.param(Notice("`a`", "`b`", "1.6", "2.0.0", rule="device_flags"), "rewrites it", id="a rewriting rule"),
    pytest.param(
        Notice("`a`", "`b`", "1.6", "2.0.0", rule="argparse_flags"), "marks it with a TODO", id="a TODO-only rule"
    ),
    pytest.param(
        Notice("`a`", "", "1.6", "2.0.0", rule="strategy_removals"), "marks it with a TODO", id="nothing replaces it"
    ),
    pytest.param(
        Notice("`a`", "`b`", "1.6", "2.0.0", rule="strategy_names", rewrites=False),
        "marks it with a TODO",
        id="the translation knows this use gets a TODO",
    ),
]


@pytest.mark.parametrize(("notice", "says"), NOTICE_TEXTS)
def test_the_notice_says_what_the_rule_does(notice: Notice, says: str) -> None:
    assert f"`migrate-trainer --only {notice.rule}` {says}." in notice.message
