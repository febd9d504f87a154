"""``legacy_api.target_aliases``: which 1.x values the target takes as written for the spelling the migration
writes (read in the installed 2.6.6: ``_PRECISION_INPUT_STR_ALIAS_CONVERSION``)."""

from __future__ import annotations

import pytest

from legacy_api.target_aliases import same_on_target


@pytest.mark.parametrize(
    ("key", "old", "new", "target", "same"),
    [
        pytest.param("precision", 16, "16-mixed", (2, 6), True, id="16 is read as 16-mixed"),
        pytest.param("precision", "bf16", "bf16-mixed", (2, 0), True, id="bf16 as bf16-mixed"),
        pytest.param("precision", 16, "bf16-true", (2, 6), False, id="on a TPU 16 became bf16-true: not the alias"),
        pytest.param("precision", True, "16-mixed", (2, 6), False, id="a bool is no precision"),
        pytest.param("precision", 16, "16-mixed", (1, 9), False, id="1.9 has no such spelling"),
        pytest.param("max_steps", None, -1, (2, 6), False, id="2.x refuses max_steps=None"),
    ],
)
def test_rows(key: str, old: object, new: object, target: tuple[int, ...], same: bool) -> None:
    assert same_on_target(key, old, new, target) is same
