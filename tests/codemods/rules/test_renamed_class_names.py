"""Rule ``renamed_class_names``: ``X.__name__`` of a class the renames rewrite gets a TODO (the string it reads
changes); a class that keeps its name, or no Lightning class, is left alone."""

from __future__ import annotations

import pytest

from tests.codemods.helpers import run

RULE = "renamed_class_names"
IMPORT = "from pytorch_lightning.plugins import DDPPlugin\n\n"


@pytest.mark.parametrize(
    ("source", "says"),
    [
        pytest.param(IMPORT + "KEY = f'pl::{DDPPlugin.__name__}'\n", "'DDPStrategy'", id="a key built from __name__"),
        pytest.param(IMPORT + "name = DDPPlugin.__qualname__\n", "__qualname__", id="__qualname__"),
    ],
)
def test_todo_rows(source: str, says: str) -> None:
    outcome = run(source, "2.0")
    found = [f for f in outcome.findings if f.rule == RULE]
    assert len(found) == 1 and found[0].kind == "todo" and says in found[0].message, outcome.findings
    assert "DDPStrategy.__" in outcome.source, "the rename itself stays"
    assert run(outcome.source, "2.0").source == outcome.source


@pytest.mark.parametrize(
    "source",
    [
        pytest.param(
            "from pytorch_lightning import Trainer\n\nname = Trainer.__name__\n", id="a class that keeps its name"
        ),
        pytest.param("import torch\n\nname = torch.nn.Linear.__name__\n", id="not Lightning's"),
    ],
)
def test_noop_rows(source: str) -> None:
    assert [f for f in run(source, "2.0").findings if f.rule == RULE] == []
