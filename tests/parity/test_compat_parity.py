"""compat with Lightning 1.5's flags selects what the real Lightning 1.5.10 selected, case by case.

Every recorded 1.5.10 case goes through ``compat.AcceleratorConnector`` (instances built from compat's old
classes, ``DDPPlugin`` and friends). Every difference must be listed, with its reason, in
tests/data/divergences.json (suite "compat"); an unlisted difference, or a listed one that no longer happens,
fails.
"""

from __future__ import annotations

import json

import pytest

import compat
from tests.parity import harness

REFERENCE = harness.load("1.5.10")
LISTED: dict[str, dict[str, str]] = json.loads(harness.DIVERGENCES.read_text())["compat"]["cases"]
CASES = sorted(case_id for case_id, record in REFERENCE.items() if record["outcome"] != "unavailable")


def test_the_reference_has_enough_cases() -> None:
    assert len(CASES) >= 900


@pytest.mark.parametrize("case_id", CASES)
def test_selection_matches_lightning_1510(case_id: str) -> None:
    record = REFERENCE[case_id]
    ours = harness.run(record["case"], compat.AcceleratorConnector, harness.compat_class)
    theirs = harness.lightning_selection(record)
    diff = harness.differences(ours, theirs)
    listed = LISTED.get(case_id)
    if listed is None:
        assert not diff, f"unlisted divergence from Lightning 1.5.10: {diff}"
        return
    assert diff, "listed as a divergence but now matches Lightning: remove it from divergences.json"
    assert listed["why"], "every divergence says why"
    assert (listed["lightning"], listed["ours"]) == (harness.summary(theirs), harness.summary(ours))


def test_every_listed_divergence_is_a_reference_case() -> None:
    assert set(LISTED) <= set(CASES)


def test_most_cases_match() -> None:
    """The listed divergences stay the exception: compat keeps 1.5's selection for the bulk of the cases."""
    assert len(LISTED) <= len(CASES) // 5
