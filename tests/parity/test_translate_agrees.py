"""``legacy_api.translate`` agrees with ``migrate-trainer``: one translation of 1.5's flags, two front ends.

For every recorded case whose migration left no TODO (tests/data/lightning-2.6.6-migrated.json, ``case.todos``
empty), translating the case's original 1.5 keyword values (tests/data/lightning-1.5.10.json) gives exactly the
migrated keyword values recorded there: literals equal, instances equal by class name and arguments (the
encoding both files use). ``EXCEPTIONS`` lists the cases that differ, each with its reason; it is empty.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from legacy_api.translate import translate

DATA = Path(__file__).resolve().parents[1] / "data"

#: Case id -> why the translation differs from the recorded migration (none today).
EXCEPTIONS: dict[str, str] = {}


@cache
def _pairs() -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """Case id -> (original 1.5 kwargs, migrated kwargs), for the cases migrated without a TODO."""
    migrated = json.loads((DATA / "lightning-2.6.6-migrated.json").read_text(encoding="utf-8"))["results"]
    original = json.loads((DATA / "lightning-1.5.10.json").read_text(encoding="utf-8"))["results"]
    return {
        case_id: (original[case_id]["case"]["kwargs"], record["case"]["kwargs"])
        for case_id, record in sorted(migrated.items())
        if not record["case"]["todos"] and "kwargs" in record["case"]
    }


def test_there_are_cases() -> None:
    assert len(_pairs()) > 600  # 631 when written


@pytest.mark.parametrize("case_id", sorted(_pairs()))
def test_translate_agrees_with_the_codemod(case_id: str) -> None:
    legacy, migrated = _pairs()[case_id]
    result = translate(legacy)
    if case_id in EXCEPTIONS:
        pytest.xfail(EXCEPTIONS[case_id])
    assert result.error is None, result.error
    assert result.kwargs == migrated


def test_the_exceptions_are_real_cases() -> None:
    assert set(EXCEPTIONS) <= set(_pairs())


def test_removed_features_give_the_error_not_kwargs() -> None:
    for flags in ({"gpus": 2, "strategy": "dp"}, {"accelerator": "ddp2", "gpus": 2}, {"strategy": "horovod"}):
        result = translate(flags)
        assert result.error is not None and result.error_rule == "strategy_names", flags
