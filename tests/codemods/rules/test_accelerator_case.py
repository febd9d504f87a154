"""Rule ``accelerator_case`` (deprecated in 1.6): accelerator names are written in lower case, as 1.6+ read them.

Its own rows, each pinned on a case recorded from real Lightning (tests/data/lightning-*.json) where one exists;
the fixture cases that show it run in tests/codemods/test_fixtures.py.
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_transformed, exercised

RULE = "accelerator_case"
_T = "from pytorch_lightning import Trainer\n"

TRANSFORMED = [
    pytest.param(
        _T + 'Trainer(accelerator="GPU", devices=1)\n',
        _T + 'Trainer(accelerator="gpu", devices=1)\n',
        "2.6",
        id="GPU (1.5: the GPU; 2.x refuses it)",
    ),
    pytest.param(
        _T + "Trainer(accelerator='Cpu')\n",
        _T + "Trainer(accelerator='cpu')\n",
        "1.6",
        id="Cpu (1.6.5: silently the CPU)",
    ),
    pytest.param(
        _T + "Trainer(accelerator='gpu')\n", _T + "Trainer(accelerator='gpu')\n", "2.6", id="already lower case"
    ),
]


@pytest.mark.parametrize(("before", "after", "target"), TRANSFORMED)
def test_transformed(before: str, after: str, target: str) -> None:
    check_transformed(before, after, target)


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
