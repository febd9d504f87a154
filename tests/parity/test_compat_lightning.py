"""compat.lightning on real Lightning 2.x, from its recording (no Lightning needed): every 1.5.10 case, passed
unchanged through the shim, selects what 1.5.10 selected or raises the error of a feature 2.x removed, and selects
what the migrate-trainer rewrite of the same call selects on every case (no listing); each other difference from
1.5.10 is listed with its reason (tests/data/divergences.json, suite ``compat.lightning``, in MIGRATION.md).

The recording is ``tests/data/lightning-2.6.6-compat.json`` (``tools/reference/record_compat.py`` in the tier's
venv); the ``lightning`` tier records it again and fails when it is stale (tests/compat/lightning/test_parity.py).
"""

from __future__ import annotations

import pytest

from legacy_api.translate import translate
from tests.parity import compat_lightning as cl

RESULTS = cl.recording()["results"]
CASES = cl.case_ids()


def test_the_recording_holds_every_case_the_old_code_could_express() -> None:
    assert sorted(RESULTS) == CASES


def test_the_recording_is_todays_translation() -> None:
    """The shim's flags come from legacy_api.translate: when it changes, record again (the tier catches the rest)."""
    stale = [
        case_id
        for case_id in CASES
        if RESULTS[case_id]["case"].get("translation") != cl.translation(translate(RESULTS[case_id]["case"]["kwargs"]))
    ]
    assert not stale, f"{len(stale)} cases translate differently now (first: {stale[0]!r}): {cl.RERECORD}"


@pytest.mark.parametrize("case_id", CASES)
def test_the_shim_selects_what_1_5_10_selected(case_id: str) -> None:
    verdict = cl.versus_1_5(case_id, RESULTS[case_id])
    cl.check(cl.SUITE, case_id, verdict)
    if verdict.kind == "removed":
        cl.check_removed_message(RESULTS[case_id])


@pytest.mark.parametrize("case_id", CASES)
def test_the_shim_selects_what_the_migrated_code_selects(case_id: str) -> None:
    """One translation: no difference is listed away here, every case selects the same (or both raise)."""
    verdict = cl.versus_migrated(case_id, RESULTS[case_id])
    assert verdict.kind == "same", f"the shim and the rewrite differ: {verdict.diff}"


def test_the_shim_and_the_rewrite_differ_on_no_recorded_case() -> None:
    assert cl.counts(RESULTS)["vs migrated: different"] == 0
    assert cl.listed(cl.VS_MIGRATED) == {}


def test_every_listed_divergence_is_a_case() -> None:
    assert set(cl.listed(cl.SUITE)) <= set(CASES)
