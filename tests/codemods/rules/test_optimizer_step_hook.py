"""Rule ``optimizer_step_hook``: the 1.x ``optimizer_step`` signature -> the one 2.x calls, where the body never
reads what 2.x stopped passing; otherwise ``removed_hooks``' TODO says why. Both sides run:
``tests/data/programs/optimizer_step_signature.py`` (``tests/codemods/runs``)."""

from __future__ import annotations

import pytest

from legacy_api.surface import arguments, surface
from tests.codemods.helpers import check_transformed, exercised, run

HEAD = "import pytorch_lightning as pl\n\n\nclass M(pl.LightningModule):\n"

REWRITES = [
    pytest.param(
        HEAD + "    def optimizer_step(self, epoch, batch_idx, optimizer, optimizer_idx, closure, on_tpu=False,"
        " using_native_amp=False, using_lbfgs=False):\n        optimizer.step(closure=closure)\n",
        HEAD + "    def optimizer_step(self, epoch, batch_idx, optimizer, closure):\n        optimizer.step(closure=closure)\n",
        id="the 1.x signature on one line: the closure keeps the user's name",
    ),
    pytest.param(
        HEAD + "    def optimizer_step(\n        self,\n        epoch,\n        batch_idx,\n        optimizer,\n"
        "        optimizer_idx,\n        optimizer_closure=None,\n        on_tpu=None,\n        using_native_amp=None,\n"
        "        using_lbfgs=None,\n    ):\n        optimizer.step(closure=optimizer_closure)\n",
        HEAD + "    def optimizer_step(\n        self,\n        epoch,\n        batch_idx,\n        optimizer,\n"
        "        optimizer_closure=None,\n    ):\n        optimizer.step(closure=optimizer_closure)\n",
        id="one parameter per line: the trailing comma and the layout stay",
    ),
    pytest.param(
        HEAD + "    def optimizer_step(self, epoch, batch_idx, optimizer, optimizer_idx, closure, **kwargs):\n"
        "        super().optimizer_step(epoch, batch_idx, optimizer, optimizer_idx, closure, **kwargs)\n",
        None,
        id="a super call passing **kwargs on is left with its TODO",
    ),
    pytest.param(
        HEAD + "    def optimizer_step(self, epoch, batch_idx, optimizer, optimizer_idx, closure, *a, **k):\n"
        "        super().optimizer_step(epoch, batch_idx, optimizer, optimizer_idx=optimizer_idx,"
        " optimizer_closure=closure, on_tpu=k['on_tpu'])\n",
        HEAD + "    def optimizer_step(self, epoch, batch_idx, optimizer, closure, *a, **k):\n"
        "        super().optimizer_step(epoch, batch_idx, optimizer, optimizer_closure=closure)\n",
        id="the super call loses the arguments 2.x no longer takes, by position or keyword",
    ),
]


@pytest.mark.parametrize(("before", "after"), REWRITES)
def test_rewrite(before: str, after: str | None) -> None:
    if after is None:
        outcome = run(before, "2.6")
        assert outcome.source.count("[removed_hooks]") == 1 and "not rewritten" in outcome.source
        return
    outcome = check_transformed(before, after, target="2.6")
    assert [f.rule for f in outcome.findings] == ["optimizer_step_hook"]


BLOCKED = [
    pytest.param("optimizer_idx, closure):\n        if optimizer_idx == 0:\n            optimizer.step(closure)\n",
                 "it reads optimizer_idx", id="the body reads optimizer_idx: several optimizers"),
    pytest.param("optimizer_idx, closure, on_tpu=False, using_native_amp=False, using_lbfgs=False):\n"
                 "        optimizer.step(closure) if not on_tpu else None\n",
                 "it reads on_tpu", id="the body reads on_tpu"),
]


@pytest.mark.parametrize(("tail", "reason"), BLOCKED)
def test_blocked(tail: str, reason: str) -> None:
    outcome = run(HEAD + "    def optimizer_step(self, epoch, batch_idx, optimizer, " + tail, "2.6")
    todos = [f.message for f in outcome.findings if f.rule == "removed_hooks"]
    assert len(todos) == 1 and reason in todos[0].rsplit("not rewritten: ", 1)[1], todos


def test_parameters_through_args_take_what_2x_passes() -> None:
    source = HEAD + "    def optimizer_step(self, *args, **kwargs):\n        super().optimizer_step(*args, **kwargs)\n"
    assert run(source, "2.6").findings == ()


def test_nothing_before_2_0() -> None:
    source = HEAD + "    def optimizer_step(self, epoch, batch_idx, optimizer, optimizer_idx, closure):\n        pass\n"
    assert run(source, "1.9").source == source


def test_the_signature_written_is_the_one_2_6_6_declares() -> None:
    parsed = arguments(surface("2.6.6").signature("pytorch_lightning.LightningModule.optimizer_step"))
    assert parsed is not None
    assert [arg.arg for arg in parsed.args] == ["self", "epoch", "batch_idx", "optimizer", "optimizer_closure"]


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised("optimizer_step_hook")
