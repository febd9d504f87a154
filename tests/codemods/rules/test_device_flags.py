"""Rule ``device_flags`` (deprecated in 1.7): gpus=/tpu_cores=/ipus=/num_processes= become accelerator= and devices=.

Its own rows; the fixture cases that show it run in tests/codemods/test_fixtures.py, the flag rules' rows
in tests/codemods/test_selection_policy.py.
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_todo, check_transformed, exercised

RULE = "device_flags"


TRANSFORMED = [
    pytest.param(
        "from pytorch_lightning import Trainer\nTrainer(gpus=0, max_epochs=1)\n",
        "from pytorch_lightning import Trainer\nTrainer(max_epochs=1)\n",
        "1.7",
        id="gpus=0 meant CPU",
    ),
    pytest.param(
        "from pytorch_lightning import Trainer\nTrainer(gpus=1 if cuda else 0)\n",
        'from pytorch_lightning import Trainer\nTrainer(accelerator="gpu" if cuda else "cpu", devices=1)\n',
        "1.7",
        id="conditional literal gpus",
    ),
    pytest.param(
        "from pytorch_lightning import Trainer\nTrainer(gpus=2, precision=16)\n",
        'from pytorch_lightning import Trainer\nTrainer(accelerator="gpu", devices=2, precision="16-mixed")\n',
        "2.0",
        id="2.0 leaves the launcher to 2.0 (reported) and spells precision",
    ),
]


@pytest.mark.parametrize(("before", "after", "target"), TRANSFORMED)
def test_transformed(before: str, after: str, target: str) -> None:
    check_transformed(before, after, target)


TODO = [
    pytest.param(
        "from pytorch_lightning import Trainer\nTrainer(gpus=args.gpus)\n", "1.7", "device_flags", id="gpus=args.gpus"
    ),
]


@pytest.mark.parametrize(("source", "target", "rule"), TODO)
def test_todo_leaves_code_and_says_why(source: str, target: str, rule: str) -> None:
    check_todo(source, target, rule)


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
