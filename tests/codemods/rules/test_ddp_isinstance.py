"""Rule ``ddp_isinstance`` (2.0): ``isinstance(strategy, DDPPlugin)`` is renamed like any use of the class and
reported at 2.0 and later, since 2.0's ``DDPStrategy`` is also ``ddp_spawn``'s strategy (1.5.10: DDPSpawnPlugin is no
DDPPlugin subclass; 2.6.6: ``strategy="ddp_spawn"`` builds a DDPStrategy).

Its own rows; the fixture case that shows it runs in tests/codemods/test_fixtures.py.
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import exercised, run

RULE = "ddp_isinstance"
_I = "import pytorch_lightning as pl\nfrom pytorch_lightning.plugins import DDPPlugin\n\n"

ROWS = [
    pytest.param(_I + "ok = isinstance(s, DDPPlugin)\n", "2.0", [4], id="isinstance"),
    pytest.param(_I + "ok = isinstance(s, (DDPPlugin, int))\n", "2.6", [4], id="in a tuple"),
    pytest.param(_I + "ok = issubclass(type(s), pl.plugins.DDPPlugin)\n", "2.6", [4], id="issubclass, dotted"),
    pytest.param(_I + "ok = isinstance(s, DDPPlugin)\n", "1.9", [], id="1.9 still has DDPSpawnStrategy apart"),
    pytest.param(_I + "s = DDPPlugin(find_unused_parameters=True)\n", "2.6", [], id="not a check"),
    pytest.param(
        "from compat.plugins import DDPPlugin\n\nok = isinstance(s, DDPPlugin)\n",
        "2.6",
        [],
        id="newcore keeps it apart",
    ),
    pytest.param(
        "class DDPPlugin:\n    pass\n\nok = isinstance(s, DDPPlugin)\n", "2.6", [], id="a class of the file's own"
    ),
]


@pytest.mark.parametrize(("source", "target", "lines"), ROWS)
def test_reported(source: str, target: str, lines: list[int]) -> None:
    outcome = run(source, target)
    found = [f for f in outcome.findings if f.rule == RULE]
    assert [f.line for f in found] == lines
    assert all(f.kind == "report" for f in found)


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
