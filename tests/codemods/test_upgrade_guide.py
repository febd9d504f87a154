"""Every row of Lightning's upgrade guide (and every unlisted removal) that code can show, run through the real
tool at the default target: the outcome recorded in legacy_api.upgrade_guide is what happens.

A ``silent`` row is a known gap: it xfails strictly, so the rule that closes it flips the test and the row's
outcome must be updated (MIGRATION.md's table is generated from it).
"""

from __future__ import annotations

import ast

import pytest

from codemods.model import Finding, Options
from codemods.rules import REGISTRY
from codemods.runner import transform_text
from legacy_api.surface import surface
from legacy_api.upgrade_guide import ROWS
from legacy_api.upgrade_guide_model import Row

#: Reports the implicit device default of any bare ``Trainer()``: true of every Trainer fixture, about no row.
UNRELATED = frozenset({"trainer_defaults"})

SHOWN = [row for row in ROWS if row.fixture and row.kind != "out-of-scope"]


def _param(row: Row) -> object:
    if row.kind == "silent":
        return pytest.param(row, id=row.id, marks=pytest.mark.xfail(strict=True, reason=f"gap: {row.detail}"))
    return pytest.param(row, id=row.id)


def _at_use(row: Row, findings: tuple[Finding, ...]) -> list[Finding]:
    """Findings on the fixture's last line (the use the row is about), bar the unrelated ones."""
    last = len(row.fixture.splitlines())
    return [f for f in findings if f.line == last and f.rule not in UNRELATED]


def _lightning_imports(source: str) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "pytorch_lightning":
            names += [f"{node.module}.{alias.name}" for alias in node.names]
    return names


@pytest.mark.parametrize("row", [_param(row) for row in SHOWN])
def test_guide_row(row: Row) -> None:
    options = Options()
    outcome = transform_text(row.fixture, row.path, options)
    assert outcome.error is None, outcome.error
    if row.kind == "silent":
        assert _at_use(row, outcome.findings), "still silent"
        return
    assert row.kind in ("rewrite", "todo", "report"), row.outcome
    kind = {"rewrite": "fix", "todo": "todo", "report": "report"}[row.kind]
    if row.kind == "rewrite":
        assert any(f.rule == row.detail and f.kind == kind for f in outcome.findings), outcome.findings
        assert outcome.changed
        assert row.shows in outcome.source
        if row.path.endswith(".py"):
            target = surface(options.target)
            assert [name for name in _lightning_imports(outcome.source) if not target.has(name)] == []
    else:
        assert any(f.rule == row.detail and f.kind == kind for f in _at_use(row, outcome.findings)), outcome.findings
    assert transform_text(outcome.source, row.path, options).source == outcome.source, "a second run changes nothing"


def test_outcomes_name_registered_rules() -> None:
    acting = {row.detail for row in ROWS if row.kind in ("rewrite", "todo", "report")}
    assert sorted(acting - set(REGISTRY)) == []


def test_every_row_code_can_show_has_a_fixture() -> None:
    assert [row.id for row in ROWS if row.kind not in ("out-of-scope",) and not row.fixture] == []
