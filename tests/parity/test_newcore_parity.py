"""newcore with new-API flags selects what the real Lightning 1.6.5 selected, case by case.

Every difference must be listed, with its reason, in tests/data/divergences.json (suite "newcore");
an unlisted difference, or a listed one that no longer happens, fails.
"""

from __future__ import annotations

import json

import pytest

from newcore import AcceleratorConnector
from tests.parity import harness

REFERENCE = harness.load("1.6.5")
LISTED: dict[str, dict[str, str]] = json.loads(harness.DIVERGENCES.read_text())["newcore"]["cases"]
CASES = sorted(
    case_id
    for case_id, record in REFERENCE.items()
    if record["outcome"] != "unavailable" and harness.is_new_api(record["case"])
)


def test_the_reference_has_enough_new_api_cases() -> None:
    assert len(CASES) >= 300


@pytest.mark.parametrize("case_id", CASES)
def test_selection_matches_lightning_165(case_id: str) -> None:
    record = REFERENCE[case_id]
    ours = harness.run(record["case"], AcceleratorConnector)
    theirs = harness.lightning_selection(record)
    diff = harness.differences(ours, theirs)
    listed = LISTED.get(case_id)
    if listed is None:
        assert not diff, f"unlisted divergence from Lightning 1.6.5: {diff}"
        return
    assert diff, "listed as a divergence but now matches Lightning: remove it from divergences.json"
    assert listed["why"], "every divergence says why"
    assert (listed["lightning"], listed["ours"]) == (harness.summary(theirs), harness.summary(ours))


def test_every_listed_divergence_is_a_reference_case() -> None:
    assert set(LISTED) <= set(CASES)
