"""Every ``migrate-trainer`` rule a compat warning names exists in the codemod's registry, and every row of the shared
renames table names one (issue 27: a notice named a rule that did not say what it claimed)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from codemods.rules import REGISTRY
from legacy_api.renames import RENAMES

COMPAT = Path(__file__).resolve().parents[2] / "compat"
#: ``rule="x"`` and ``RULE = "x"``/``_RULE = "x"`` literals in compat's sources.
_LITERAL = re.compile(r"""\b(?:rule\s*=\s*|_?RULE\s*=\s*)["'](\w+)["']""")


def _named() -> list[tuple[str, str]]:
    found = []
    for path in sorted(COMPAT.rglob("*.py")):
        for match in _LITERAL.finditer(path.read_text(encoding="utf-8")):
            found.append((path.relative_to(COMPAT).as_posix(), match.group(1)))
    return found


@pytest.mark.parametrize(("where", "rule"), _named(), ids=[f"{w}:{r}" for w, r in _named()])
def test_a_rule_a_notice_names_exists(where: str, rule: str) -> None:
    assert rule in REGISTRY, f"compat/{where} names rule {rule!r}, which migrate-trainer does not have"


def test_every_rename_row_names_a_rule() -> None:
    assert sorted({row.rule for row in RENAMES} - set(REGISTRY)) == []
