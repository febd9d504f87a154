"""The upgrade-guide coverage table: every row of Lightning's upgrade guide (1.4 ... 2.0, each audience) and the
removals the recorded surfaces show without a guide row, with what ``migrate-trainer`` does about each.

The rows live in the ``upgrade_guide_<versions>`` modules (one per guide release or two), the row type and the
fixture builders in :mod:`legacy_api.upgrade_guide_model`. ``tests/codemods/test_upgrade_guide.py`` runs every
fixture through the tool and asserts the recorded outcome; ``tests/legacy_api/test_upgrade_guide.py`` checks each
row's ``gone`` against the recordings. MIGRATION.md's "Lightning's upgrade guide" table is :func:`render_markdown`.
"""

from __future__ import annotations

from collections import Counter

from legacy_api import (
    upgrade_guide_1_4_1_5,
    upgrade_guide_1_6,
    upgrade_guide_1_7,
    upgrade_guide_1_8,
    upgrade_guide_1_9,
    upgrade_guide_1_9_devel,
    upgrade_guide_1_9_late,
    upgrade_guide_2_0,
)
from legacy_api.upgrade_guide_model import OUTCOME_KINDS, Row

ROWS: tuple[Row, ...] = (
    *upgrade_guide_1_4_1_5.ROWS,
    *upgrade_guide_1_6.ROWS,
    *upgrade_guide_1_7.ROWS,
    *upgrade_guide_1_8.ROWS,
    *upgrade_guide_1_9.ROWS,
    *upgrade_guide_1_9_late.ROWS,
    *upgrade_guide_1_9_devel.ROWS,
    *upgrade_guide_2_0.ROWS,
)

AUDIENCES = ("regular", "advanced", "devel", "unlisted")
_AUDIENCE_TITLES = {
    "regular": "regular user",
    "advanced": "advanced user",
    "devel": "developer",
    "unlisted": "not in the guide (found in the recorded surfaces)",
}


def counts() -> dict[str, int]:
    """How many rows have each outcome kind."""
    found = Counter(row.kind for row in ROWS)
    return {kind: found[kind] for kind in OUTCOME_KINDS}


def _does(row: Row) -> str:
    if row.kind in ("rewrite", "todo", "report"):
        what = {"rewrite": "rewrites it", "todo": "a TODO", "report": "reports it"}[row.kind]
        return f"{what} (`{row.detail}`)"
    if row.kind == "silent":
        return f"**nothing yet** (should: {row.detail})"
    return f"out of scope: {row.detail}"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown() -> str:
    """The coverage table grouped like the guide: release, then audience; a summary line first."""
    total = counts()
    lines = [
        f"{len(ROWS)} rows: " + ", ".join(f"{n} {kind}" for kind, n in total.items()) + ".",
        "",
    ]
    for version in sorted({row.version for row in ROWS}, key=lambda v: tuple(map(int, v.split(".")))):
        for audience in AUDIENCES:
            rows = [row for row in ROWS if row.version == version and row.audience == audience]
            if not rows:
                continue
            lines += [
                f"**{version}, {_AUDIENCE_TITLES[audience]}**",
                "",
                "| Row | If you used | Use instead | Gone in | What migrate-trainer does |",
                "|---|---|---|---|---|",
            ]
            for row in rows:
                note = f" (guide: {row.guide_note})" if row.guide_note else ""
                cells = [row.id, f"`{row.legacy}`" + note, row.replacement, row.gone or "-", _does(row)]
                lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
            lines.append("")
    return "\n".join(lines).strip()
