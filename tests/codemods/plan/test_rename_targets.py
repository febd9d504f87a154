"""No rename writes a name its target lacks: every row of the renames table, followed to its end for each target,
lands on a name the target's recorded surface has (``legacy_api.surface``), or on none at all (then the use gets a
TODO). Checked on the recordings of the real releases, not on the table's own word."""

from __future__ import annotations

import pytest

from codemods.plan.resolve import resolve
from legacy_api.renames import PL, RENAMES, TARGET_VERSIONS, version_tuple
from legacy_api.surface import release_for, surface


@pytest.mark.parametrize("target", TARGET_VERSIONS)
def test_every_rewrite_names_what_the_target_has(target: str) -> None:
    release = surface(release_for(target))
    written = {
        (old, found.new)
        for row in RENAMES
        if PL in row.roots and row.kind not in ("kwarg", "property", "enum")
        for old in [row.qualified(PL)[0]]
        if (found := resolve(old, version_tuple(target))) is not None and found.new is not None
    }
    missing = sorted((old, new) for old, new in written if release.knows(new) and not release.has(new))
    assert not missing, f"rewrites to names Lightning {release.release} lacks: {missing}"


def test_a_successor_the_target_lacks_becomes_a_todo() -> None:
    found = resolve(f"{PL}.plugins.training_type.ddp_spawn", (2, 6))
    assert found is not None and found.new is None
    assert "strategies.ddp_spawn is not in Lightning 2.6.6" in found.note
