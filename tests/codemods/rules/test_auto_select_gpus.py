"""Rule ``auto_select_gpus`` (deprecated in 1.9): auto_select_gpus=True becomes devices=find_usable_cuda_devices(n).

Its own rows; the fixture cases that show it run in tests/codemods/test_fixtures.py, the flag rules' rows
in tests/codemods/test_selection_policy.py.
"""

from __future__ import annotations

from tests.codemods.helpers import exercised

RULE = "auto_select_gpus"


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
