"""Rows that belong to no single rule: look-alikes left alone, and how --only restricts the rules."""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_noop, run

NOOP = [
    pytest.param("def train(gpus=2):\n    return gpus\n", id="a function's own gpus= parameter"),
    pytest.param("class Box:\n    def size(self):\n        return self.gpus\n", id="self.gpus on a user's class"),
    pytest.param(
        "from dataclasses import dataclass\n\n@dataclass\nclass DDPPlugin:\n    n: int = 1\n\nx = DDPPlugin()\n",
        id="a user's own DDPPlugin dataclass",
    ),
    pytest.param("import argparse\np = argparse.ArgumentParser()\np.add_argument('--epochs')\n", id="argparse"),
    pytest.param("from pytorch_lightning import Trainer\nTrainer(accelerator='gpu', devices=2)\n", id="already new"),
    pytest.param("from pytorch_lightning import Trainer\nTrainer(gpus=2)\n", id="gpus= is fine on 1.6"),
    pytest.param("def f(x):\n    return x.training_type_plugin\n", id="property on a non-trainer"),
    pytest.param("print('DDPPlugin gpus accelerator')\n", id="legacy words in a string"),
]


@pytest.mark.parametrize("source", NOOP)
def test_noop(source: str) -> None:
    check_noop(source)


def test_dropped_duplicate_is_reported() -> None:
    outcome = run("from pytorch_lightning import Trainer\nTrainer(accelerator='ddp_spawn', plugins=['ddp'])\n")
    assert any("dropped accelerator='ddp_spawn'" in f.message for f in outcome.findings)


def test_only_rules_restricts() -> None:
    source = "from pytorch_lightning import Trainer\nTrainer(accelerator='ddp', gpus=2)\n"
    outcome = run(source, "1.7", rules=frozenset({"accelerator_strategy"}))
    assert outcome.source == "from pytorch_lightning import Trainer\nTrainer(strategy='ddp', gpus=2)\n"
