"""Rule ``compat_imports`` (deprecated in 1.6): imports from this project's compat layer move to newcore.

Its own rows; the fixture cases that show it run in tests/codemods/test_fixtures.py, the flag rules' rows
in tests/codemods/test_selection_policy.py.
"""

from __future__ import annotations

from tests.codemods.helpers import exercised

RULE = "compat_imports"


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
