"""Rule ``unknown_trainer_flags``: a keyword Lightning's own ``Trainer`` takes in no recorded release gets one TODO
on its line (it raises a TypeError on the target, and did on 1.5); flags some release took are other rules', and a
subclass or ``from_argparse_args`` may take keys of its own."""

from __future__ import annotations

import pytest

from tests.codemods.helpers import run

RULE = "unknown_trainer_flags"
HEAD = "import pytorch_lightning as pl\nfrom pytorch_lightning import Trainer\n\n"


@pytest.mark.parametrize(
    ("call", "key"),
    [
        pytest.param("Trainer(early_stop_callback=stop, max_epochs=3)", "early_stop_callback", id="gone in 1.0"),
        pytest.param("pl.Trainer(max_nb_epochs=3)", "max_nb_epochs", id="through the module"),
        pytest.param("Trainer(gpus=2, show_progress_bar=False)", "show_progress_bar", id="next to a migrated flag"),
        pytest.param("Trainer(gpus=n, nb_gpu_nodes=2)", "nb_gpu_nodes", id="next to a flag the tool cannot read"),
    ],
)
def test_todo_rows(call: str, key: str) -> None:
    outcome = run(f"{HEAD}trainer = {call}\n", "2.0")
    found = [f for f in outcome.findings if f.rule == RULE]
    assert len(found) == 1 and found[0].kind == "todo" and found[0].message.startswith(f"{key}="), outcome.findings
    assert outcome.source.count("TODO(migrate-trainer)") >= 1
    assert run(outcome.source, "2.0").source == outcome.source


@pytest.mark.parametrize(
    "source",
    [
        pytest.param("trainer = Trainer(max_epochs=3, enable_checkpointing=False)\n", id="flags the target takes"),
        pytest.param("trainer = Trainer(checkpoint_callback=False)\n", id="a flag 1.5 took: removed_arguments'"),
        pytest.param("trainer = Trainer.from_argparse_args(args, early_stop_callback=s)\n", id="from_argparse_args"),
        pytest.param(
            "class T(Trainer):\n    def __init__(self, my_flag=1, **kw):\n        super().__init__(**kw)\n\n"
            "trainer = T(my_flag=2, max_epochs=1)\n",
            id="a subclass takes its own keys",
        ),
    ],
)
def test_noop_rows(source: str) -> None:
    assert [f for f in run(f"{HEAD}{source}", "2.0").findings if f.rule == RULE] == []
