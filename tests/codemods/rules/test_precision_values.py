"""Rule ``precision_values`` (deprecated in 2.0): precision=16/"bf16" become "16-mixed"/"bf16-mixed".

Its own rows; the fixture cases that show it run in tests/codemods/test_fixtures.py, the flag rules' rows
in tests/codemods/test_selection_policy.py.
"""

from __future__ import annotations

from tests.codemods.helpers import exercised

RULE = "precision_values"


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
