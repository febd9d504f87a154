"""Rule ``replace_sampler_ddp`` (deprecated in 2.0): replace_sampler_ddp= becomes use_distributed_sampler=.

Its own rows; the fixture cases that show it run in tests/codemods/test_fixtures.py, the flag rules' rows
in tests/codemods/test_selection_policy.py.
"""

from __future__ import annotations

from tests.codemods.helpers import exercised

RULE = "replace_sampler_ddp"


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
