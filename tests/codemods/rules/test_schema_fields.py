"""Rule ``schema_fields``: a field of a class mirroring the Trainer's arguments whose argument the target's Trainer
no longer takes gets one TODO at the field, naming what replaced it; other classes and fields are left alone."""

from __future__ import annotations

import pytest

from tests.codemods.helpers import run

RULE = "schema_fields"
HEAD = "from dataclasses import dataclass\n\n\n@dataclass\nclass TrainerConf:\n    max_epochs: int = 1\n"

TODO = [
    pytest.param(
        HEAD + "    gpus: int = 0\n", "accelerator and devices", id="gpus in a schema that mirrors the Trainer"
    ),
    pytest.param(
        HEAD + "    accelerator: str = 'ddp'\n    amp_backend: str = 'native'\n", "precision", id="amp_backend"
    ),
    pytest.param(
        HEAD + "    devices: int = 1\n    weights_summary: str = 'top'\n",
        "enable_model_summary",
        id="a renamed argument",
    ),
]


@pytest.mark.parametrize(("source", "message"), TODO)
def test_todo_rows(source: str, message: str) -> None:
    outcome = run(source, "2.0")
    found = [f for f in outcome.findings if f.rule == RULE]
    assert len(found) == 1 and found[0].kind == "todo" and message in found[0].message, outcome.findings
    assert found[0].line == len(source.splitlines())
    assert run(outcome.source, "2.0").source == outcome.source, "a second run must change nothing"


NOOP = [
    pytest.param("class Args:\n    gpus: int = 0\n    name: str = 'x'\n", "2.0", id="a class that does not mirror it"),
    pytest.param(HEAD + "    gpus: int = 0\n", "1.6", id="a target that still takes gpus"),
    pytest.param(HEAD + "    devices: int = 1\n    accelerator: str = 'gpu'\n", "2.0", id="fields 2.x takes"),
]


@pytest.mark.parametrize(("source", "target"), NOOP)
def test_noop_rows(source: str, target: str) -> None:
    assert [f for f in run(source, target).findings if f.rule == RULE] == []
