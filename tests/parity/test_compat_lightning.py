"""compat.lightning on real Lightning 2.x, from its recording (no Lightning needed): every 1.5.10 case, passed
unchanged through the shim, selects what 1.5.10 selected or raises the error of a feature 2.x removed, and selects
what the migrate-trainer rewrite of the same call selects; each other difference is listed with its reason
(tests/data/divergences.json, suites ``compat.lightning`` and ``compat.lightning-vs-migrated``, in MIGRATION.md).

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
    cl.check(cl.VS_MIGRATED, case_id, cl.versus_migrated(case_id, RESULTS[case_id]))


def test_every_listed_divergence_is_a_case() -> None:
    for suite in (cl.SUITE, cl.VS_MIGRATED):
        assert set(cl.listed(suite)) <= set(CASES)
