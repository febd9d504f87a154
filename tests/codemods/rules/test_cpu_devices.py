"""Rule ``cpu_devices`` (deprecated in 1.6): devices=None/0/-1 next to accelerator='cpu' is dropped.

Its own rows, each pinned on a case recorded from real Lightning (tests/data/lightning-*.json) where one exists;
the fixture cases that show it run in tests/codemods/test_fixtures.py.
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_transformed, exercised

RULE = "cpu_devices"
_T = "from pytorch_lightning import Trainer\n"

TRANSFORMED = [
    pytest.param(
        _T + "Trainer(accelerator='cpu', devices=None)\n",
        _T + "Trainer(accelerator='cpu')\n",
        "2.6",
        id="None (1.5: one CPU process)",
    ),
    pytest.param(_T + "Trainer(accelerator='cpu', devices=-1)\n", _T + "Trainer(accelerator='cpu')\n", "2.6", id="-1"),
    pytest.param(_T + "Trainer(num_processes=-1)\n", _T + 'Trainer(accelerator="cpu")\n', "2.6", id="num_processes=-1"),
    pytest.param(
        _T + "Trainer(accelerator='cpu', devices=2)\n",
        _T + "Trainer(accelerator='cpu', devices=2)\n",
        "2.6",
        id="a count stays",
    ),
    pytest.param(
        _T + "Trainer(accelerator='gpu', devices=-1)\n",
        _T + "Trainer(accelerator='gpu', devices=-1)\n",
        "2.6",
        id="-1 GPUs is every GPU",
    ),
]


@pytest.mark.parametrize(("before", "after", "target"), TRANSFORMED)
def test_transformed(before: str, after: str, target: str) -> None:
    check_transformed(before, after, target)


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
