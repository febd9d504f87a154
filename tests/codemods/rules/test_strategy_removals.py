"""Rule ``strategy_removals`` (deprecated in 1.7): strategy classes retired after 1.6 (DDP2, FairScale, Horovod, DP, DDPSpawn, TPUSpawn) are flagged.

Its own rows; the fixture cases that show it run in tests/codemods/test_fixtures.py, the flag rules' rows
in tests/codemods/test_selection_policy.py.
"""

from __future__ import annotations

from tests.codemods.helpers import exercised

RULE = "strategy_removals"


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
