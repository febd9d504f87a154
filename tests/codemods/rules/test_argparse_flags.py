"""Rule ``argparse_flags`` (deprecated in 1.7): --gpus-style argparse options are reported (not rewritten) unless provably fed to the Trainer.

Its own rows; the fixture cases that show it run in tests/codemods/test_fixtures.py, the flag rules' rows
in tests/codemods/test_selection_policy.py.
"""

from __future__ import annotations

from tests.codemods.helpers import exercised

RULE = "argparse_flags"


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
