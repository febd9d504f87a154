"""Rule ``instantiated_trainer_flags``: a flag the target refuses, passed next to a config's Trainer section that
Hydra instantiates (``instantiate(cfg.trainer, gpus=...)``), gets a TODO naming what to pass instead; other calls and
flags the target takes are left alone."""

from __future__ import annotations

import pytest

from tests.codemods.helpers import run

RULE = "instantiated_trainer_flags"
HEAD = "import pytorch_lightning as pl\nfrom hydra.utils import instantiate\nimport hydra\n\n"


@pytest.mark.parametrize(
    ("call", "says"),
    [
        pytest.param("instantiate(cfg.trainer, gpus=gpus)", 'accelerator="gpu" and devices=', id="gpus="),
        pytest.param("hydra.utils.instantiate(cfg.trainer, tpu_cores=8)", 'accelerator="tpu"', id="tpu_cores="),
        pytest.param("instantiate(config.trainer, distributed_backend=b)", "strategy=", id="distributed_backend="),
        pytest.param("instantiate(cfg.trainer, checkpoint_callback=False)", "enable_checkpointing=", id="a rename"),
    ],
)
def test_todo_rows(call: str, says: str) -> None:
    outcome = run(f"{HEAD}trainer = {call}\n", "2.0")
    found = [f for f in outcome.findings if f.rule == RULE]
    assert len(found) == 1 and found[0].kind == "todo" and says in found[0].message, outcome.findings
    assert run(outcome.source, "2.0").source == outcome.source


@pytest.mark.parametrize(
    ("call", "target"),
    [
        pytest.param("instantiate(cfg.model, gpus=gpus)", "2.0", id="not a Trainer section"),
        pytest.param("instantiate(cfg.trainer, logger=loggers, max_epochs=3)", "2.0", id="flags the target takes"),
        pytest.param("instantiate(cfg.trainer, gpus=gpus)", "1.9", id="1.9 still takes gpus="),
    ],
)
def test_noop_rows(call: str, target: str) -> None:
    assert [f for f in run(f"{HEAD}trainer = {call}\n", target).findings if f.rule == RULE] == []
