"""Rule ``moved_integrations``: IPU/HPU classes (moved out of Lightning in 2.1) are flagged.

Its own rows (facts: legacy_api/LIGHTNING_2X.md).
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_noop, exercised, run

RULE = "moved_integrations"


TODO = [
    pytest.param(
        "from pytorch_lightning.strategies import IPUStrategy\ns = IPUStrategy()\n",
        "lightning-graphcore",
        id="IPUStrategy",
    ),
    pytest.param(
        "from pytorch_lightning.plugins import IPUPlugin\ns = IPUPlugin()\n",
        "lightning-graphcore",
        id="1.5 IPUPlugin",
    ),
    pytest.param(
        "import pytorch_lightning as pl\na = pl.accelerators.HPUAccelerator()\n", "lightning-habana", id="HPU"
    ),
]


@pytest.mark.parametrize(
    ("source", "package"),
    TODO,
)
def test_flagged_from_2_1(source: str, package: str) -> None:
    outcome = run(source, "2.1")
    todos = [f for f in outcome.findings if f.kind == "todo"]
    assert {f.rule for f in todos} == {RULE} and package in todos[-1].message  # the import, then the use
    assert outcome.source.endswith(source.splitlines()[-1] + "\n")
    assert run(outcome.source, "2.1").source == outcome.source


def test_2_0_leaves_them() -> None:
    check_noop("from pytorch_lightning.strategies import IPUStrategy\ns = IPUStrategy()\n", target="2.0")


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
