"""Rule ``datamodule_size``: ``dm.size()`` -> ``dm.dims`` where the project's data module sets ``self.dims`` in its own
``__init__`` (1.5.10's ``size`` returned it); elsewhere rule ``removed_members`` keeps its TODO. The program
``tests/data/programs/datamodule_size.py`` prints the same on 1.5.10 and, migrated, on 2.6.6."""

from __future__ import annotations

import pytest

from tests.codemods.helpers import run

HEAD = "import pytorch_lightning as pl\n\n\n"
SETS = "class DM(pl.LightningDataModule):\n    def __init__(self):\n        super().__init__()\n        self.dims = (1, 28, 28)\n"
LATE = "class DM(pl.LightningDataModule):\n    def setup(self, stage=None):\n        self.dims = (1, 28, 28)\n"
OWN = SETS + "\n    def size(self):\n        return 3\n"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param(SETS + "\n\ndm = DM()\nshape = dm.size()\n", "shape = dm.dims\n", id="size() is the dims it sets"),
        pytest.param(SETS + "\n\ndm = DM()\nc = dm.size(0)\n", "c = dm.dims[0]\n", id="size(i) is an index into them"),
        pytest.param(
            SETS + "\n    def shape(self):\n        return self.size()\n",
            "        return self.dims\n",
            id="self.size()",
        ),
    ],
)
def test_rewrites(source: str, expected: str) -> None:
    outcome = run(HEAD + source, "2.0")
    assert outcome.source.endswith(expected), outcome.source
    assert [f.rule for f in outcome.findings if f.kind == "todo"] == []
    assert run(outcome.source, "2.0").source == outcome.source


@pytest.mark.parametrize(
    "source",
    [
        pytest.param(LATE + "\n\ndm = DM()\nshape = dm.size()\n", id="dims set in setup(): 1.5 read None before it"),
        pytest.param("dm = pl.LightningDataModule()\nshape = dm.size()\n", id="nothing sets dims"),
    ],
)
def test_todo_stays(source: str) -> None:
    outcome = run(HEAD + source, "2.0")
    assert "dm.size()" in outcome.source
    assert [f.rule for f in outcome.findings if f.kind == "todo"] == ["removed_members"]


def test_a_size_of_its_own_is_left_alone() -> None:
    source = HEAD + OWN + "\n\ndm = DM()\nshape = dm.size()\n"
    outcome = run(source, "2.0")
    assert "dm.size()" in outcome.source and not [f for f in outcome.findings if f.rule == "datamodule_size"]
