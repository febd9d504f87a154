"""The upgrade-guide table's facts: each row's removal is what the recorded releases show, ids are stable and
ordered like the guide, and outcomes are well formed. The table reads only the standard library."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from legacy_api.upgrade_guide import AUDIENCES, ROWS, render_markdown
from legacy_api.upgrade_guide_model import OUTCOME_KINDS, Row, gone_in

PROBED = [row for row in ROWS if row.probe]


@pytest.mark.parametrize("row", PROBED, ids=[row.id for row in PROBED])
def test_gone_is_what_the_recordings_show(row: Row) -> None:
    assert gone_in(row.probe) == row.gone


def test_rows_without_a_probe_claim_no_release() -> None:
    assert [row.id for row in ROWS if not row.probe and row.gone] == []


def test_ids_are_unique_and_in_guide_order() -> None:
    ids = [row.id for row in ROWS]
    assert len(ids) == len(set(ids))
    for row in ROWS:
        assert re.fullmatch(r"\d\.\d-(" + "|".join(AUDIENCES) + r")-\d\d", row.id), row.id
    key = [(tuple(map(int, r.version.split("."))), r.audience, r.id) for r in ROWS]
    grouped = [(v, a) for v, a, _ in key]
    assert all(grouped.index(g) == i or grouped[i - 1] == g for i, g in enumerate(grouped))


def test_outcomes_are_well_formed() -> None:
    for row in ROWS:
        assert row.kind in OUTCOME_KINDS and row.detail, row.id
        assert not row.shows or row.kind == "rewrite", f"{row.id}: shows is for rewrites"


def test_every_guide_row_is_there() -> None:
    """The guide's tables had 326 rows when this table was written (1.4 ... 2.0, all audiences)."""
    assert sum(row.audience != "unlisted" for row in ROWS) == 326


def test_the_table_renders_every_row() -> None:
    text = render_markdown()
    assert all(f"| {row.id} |" in text for row in ROWS)


def test_stdlib_only() -> None:
    code = "import sys, legacy_api.upgrade_guide as u; u.render_markdown(); print(sorted(sys.modules))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "libcst" not in loaded and "torch" not in loaded
