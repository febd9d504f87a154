"""Comments survive a rewrite exactly once: the comments of every Python fixture's output are the input's
comments plus the TODO comments the run added (none lost, none duplicated, wherever the rebuilt code put them);
an earlier run's TODO may only be reworded in place.
"""

from __future__ import annotations

import io
import tokenize
from collections import Counter
from pathlib import Path

import pytest

from codemods.model import TODO_PREFIX, Options
from codemods.runner import transform_text
from tests.codemods.test_fixtures import CASES, _options

PY_CASES = [case for case in CASES if (case / "before.py").is_file()]


def _comments(source: str) -> Counter[str]:
    """The comments that say something (an empty ``#`` goes with an argument that goes)."""
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return Counter(token.string for token in tokens if token.type == tokenize.COMMENT and token.string.strip() != "#")


def _check(before: str, after: str) -> None:
    old, new = _comments(before), _comments(after)
    stale = Counter({text: n for text, n in (old - new).items() if text.startswith(TODO_PREFIX.strip())})
    added = Counter({text: n for text, n in (new - old).items() if text.startswith(TODO_PREFIX.strip())})
    # An earlier run's TODO may be reworded in place (same rule, the code it quotes changed): never lost.
    assert sum(stale.values()) <= sum(added.values()), f"TODOs lost: {sorted(stale)}"
    assert new == old - stale + added, f"lost: {sorted((old - stale + added) - new)}; extra: {sorted(new - old)}"


@pytest.mark.parametrize("case", PY_CASES, ids=[case.name for case in PY_CASES])
def test_every_comment_survives_once(case: Path) -> None:
    before = case / "before.py"
    text = before.read_text(encoding="utf-8")
    outcome = transform_text(text, before.name, _options(case, before))
    assert outcome.error is None, outcome.error
    _check(text, outcome.source)


CALL = """\
import pytorch_lightning as pl
from mypkg import MyPlugin


def build(n):
    trainer = pl.Trainer(
        gpus=2,  # two
        # strategy next
        accelerator="ddp",
        plugins=[MyPlugin()],  # custom
    )
    flags = {
        "gpus": 2,  # per node
        # the backend
        "distributed_backend": "ddp",
        "max_epochs": n,  # epochs
    }
    return trainer, pl.Trainer(**flags), pl.Trainer(gpus=n,  # count
                                                   accelerator="ddp", max_epochs=3)
"""


@pytest.mark.parametrize("target", ["1.6", "1.7", "2.0"])
def test_comments_in_rebuilt_calls_and_dicts(target: str) -> None:
    outcome = transform_text(CALL, "train.py", Options(target=target))
    assert outcome.error is None, outcome.error
    assert outcome.changed
    _check(CALL, outcome.source)
    # The untouched argument keeps its line as it was, comment included.
    assert "        plugins=[MyPlugin()],  # custom\n" in outcome.source


def test_an_empty_comment_goes_with_its_removed_argument() -> None:
    source = "import pytorch_lightning as pl\n\ntrainer = pl.Trainer(\n    max_epochs=3,\n    terminate_on_nan=False,  #\n)\n"
    outcome = transform_text(source, "train.py", Options(target="2.0"))
    assert outcome.source == "import pytorch_lightning as pl\n\ntrainer = pl.Trainer(\n    max_epochs=3,\n)\n"
