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

from codemods.frontends.python import transform_python
from codemods.model import Options
from legacy_api.launch_policy import TEST_SUITE_STRATEGY
from legacy_api.translate import translate
from tests.parity.closed_loop import render, trainer_keywords
from tests.parity.real_target import NotEncodable, encode

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


# --- the same translation in a test suite, and what each warning says the rewrite does ------------------------------
@cache
def _migrations(test_suite: bool) -> dict[str, tuple[dict[str, Any], Any]]:
    """Case id -> (original 1.5 kwargs, the codemod's outcome on the rendered call), notebooks left out."""
    original = json.loads((DATA / "lightning-1.5.10.json").read_text(encoding="utf-8"))["results"]
    return {
        case_id: (r["case"]["kwargs"], transform_python(render(r["case"]["kwargs"]), Options(test_suite=test_suite)))
        for case_id, r in sorted(original.items())
        if r["outcome"] != "unavailable" and not r["case"].get("interactive")
    }


def test_in_a_test_suite_the_translation_spawns_where_the_codemod_does() -> None:
    """legacy_api.launch_policy: several devices 1.5 spawned keep ddp_spawn under pytest, in both front ends."""
    compared, spawned, differ = 0, 0, []
    for case_id, (legacy, outcome) in _migrations(True).items():
        if any(f.kind == "todo" for f in outcome.findings):
            continue
        try:
            migrated = {key: encode(node) for key, node in trainer_keywords(outcome.source).items()}
        except (NotEncodable, ValueError):
            continue
        result = translate(legacy, test_suite=True)
        compared += 1
        spawned += migrated.get("strategy") == TEST_SUITE_STRATEGY
        if result.error is not None or result.kwargs != migrated:
            differ.append(case_id)
    assert differ == [] and compared > 600 and spawned > 100, (differ[:3], compared, spawned)  # 667, 149 when written


def test_a_warning_says_rewrites_only_where_the_rule_rewrites() -> None:
    """Use.rewrites (the notice's "`migrate-trainer --only X` rewrites it") is False exactly where rule X left only
    a TODO on that call; rules with no finding at all are the renames table's, which rewrite."""
    wrong = []
    for case_id, (legacy, outcome) in _migrations(False).items():
        result = translate(legacy)
        if result.error is not None:
            continue
        kinds: dict[str, set[str]] = {}
        for finding in outcome.findings:
            kinds.setdefault(finding.rule, set()).add(finding.kind)
        for use in result.uses:
            found = kinds.get(use.rule, set())
            if use.rewrites != ("fix" in found or not found):
                wrong.append((case_id, use.old, use.rule, sorted(found)))
    assert wrong == []
