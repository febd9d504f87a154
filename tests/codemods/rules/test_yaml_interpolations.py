"""Rule ``yaml_interpolations`` (deprecated in 1.4): ${trainer.<key>} interpolations follow renamed Trainer keys, or are flagged.

Its own rows; the fixture cases that show it run in tests/codemods/test_fixtures.py, the flag rules' rows
in tests/codemods/test_selection_policy.py.
"""

from __future__ import annotations

from tests.codemods.helpers import exercised

RULE = "yaml_interpolations"


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
