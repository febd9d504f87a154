"""Fixture pairs (tests/codemods/fixtures/<case>/before.* + after.*) and the harness every fixture goes through."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from codemods.engine import Options
from codemods.runner import transform_text

FIXTURES = Path(__file__).parent / "fixtures"
CASES = sorted(p for p in FIXTURES.iterdir() if p.is_dir())


def _pair(case: Path) -> tuple[Path, Path | None, str]:
    before = next(case.glob("before.*"))
    after = next(iter(case.glob("after.*")), None)
    target = (case / "target").read_text().strip() if (case / "target").exists() else "1.6"
    return before, after, target


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_fixture(case: Path) -> None:
    before, after, target = _pair(case)
    text = before.read_text(encoding="utf-8")
    options = Options(target=target)
    outcome = transform_text(text, before.name, options)
    if after is None:  # noop or unparseable: byte-identical
        assert outcome.source == text
        assert not outcome.changed
        return
    assert outcome.error is None, outcome.error
    assert outcome.source == after.read_text(encoding="utf-8")
    if before.suffix == ".py":
        ast.parse(outcome.source)
    assert transform_text(outcome.source, before.name, options).source == outcome.source, "not idempotent"
