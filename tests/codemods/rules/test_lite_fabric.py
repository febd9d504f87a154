"""Rule ``lite_fabric`` (deprecated in 1.9): ``pytorch_lightning.lite.LightningLite`` (its module removed in 2.0, #15953)
gets one TODO naming ``lightning_fabric.Fabric``, never a rename: another package, and other defaults (2.6.6's Fabric
takes accelerator="auto", devices="auto"; 1.5.10's LightningLite took None, None: one CPU).

Its own rows; the fixture case that shows it runs in tests/codemods/test_fixtures.py.
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import exercised, run

RULE = "lite_fabric"

ROWS = [
    pytest.param(
        "from pytorch_lightning.lite import LightningLite\n\nlite = LightningLite()\n",
        "2.0",
        2,
        id="2.0: the import and the use",
    ),
    pytest.param(
        "import pytorch_lightning as pl\n\n\nclass Lite(pl.lite.LightningLite):\n    pass\n", "2.6", 1, id="dotted base"
    ),
    pytest.param("from pytorch_lightning.lite import LightningLite\n\nlite = LightningLite()\n", "1.9", 0, id="1.9"),
    pytest.param("class LightningLite:\n    pass\n\nlite = LightningLite()\n", "2.6", 0, id="a class of its own"),
]


@pytest.mark.parametrize(("source", "target", "todos"), ROWS)
def test_rows(source: str, target: str, todos: int) -> None:
    outcome = run(source, target)
    found = [f for f in outcome.findings if f.rule == RULE and f.kind == "todo"]
    assert len(found) == todos
    assert all("lightning_fabric.Fabric" in f.message for f in found)
    assert outcome.source.count("TODO(migrate-trainer)") == todos
    assert "LightningLite" in outcome.source  # flagged, never renamed


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
