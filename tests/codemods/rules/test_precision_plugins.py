"""Rule ``precision_plugins`` (deprecated in 1.5): NativeMixed/TPUHalf precision plugins are renamed; FairScale/apex ones are renamed or flagged.

Its own rows; the fixture cases that show it run in tests/codemods/test_fixtures.py, the flag rules' rows
in tests/codemods/test_selection_policy.py.
"""

from __future__ import annotations

from tests.codemods.helpers import exercised

RULE = "precision_plugins"


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
