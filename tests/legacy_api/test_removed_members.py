"""``legacy_api.removed_members`` against the recorded surfaces: every ``gone`` row names a member some 1.x release
had on its class and 2.6.6 lacks there, and every replacement path it names exists in 2.6.6."""

from __future__ import annotations

import re

import pytest

from legacy_api.removed_members import LEGACY_RELEASES, MEMBERS, Member, derives, removed_in
from legacy_api.surface import surface

NEWEST = surface("2.6.6")


def _id(row: Member) -> str:
    return f"{row.owner_name}.{row.attr} ({row.use})"


@pytest.mark.parametrize("row", MEMBERS, ids=_id)
def test_a_legacy_release_had_it(row: Member) -> None:
    assert any(row.attr in (surface(release).members(row.owner) or ()) for release in LEGACY_RELEASES)


@pytest.mark.parametrize("row", [row for row in MEMBERS if row.use == "gone"], ids=_id)
def test_gone_rows_are_gone_at_2_6(row: Member) -> None:
    assert row.attr not in (NEWEST.members(row.owner) or ())
    assert removed_in(row.owner, row.attr) is not None


@pytest.mark.parametrize("row", [row for row in MEMBERS if row.use != "gone"], ids=_id)
def test_store_and_changed_rows_say_when(row: Member) -> None:
    assert re.fullmatch(r"\d\.\d", row.since)


@pytest.mark.parametrize("row", MEMBERS, ids=_id)
def test_named_replacements_exist_at_2_6(row: Member) -> None:
    for path in re.findall(r"pytorch_lightning(?:\.\w+)+", row.instead):
        assert NEWEST.has(path), path


@pytest.mark.parametrize(
    ("cls", "owner", "expected"),
    [
        ("pytorch_lightning.loggers.TensorBoardLogger", "pytorch_lightning.loggers.LightningLoggerBase", True),
        ("pytorch_lightning.profiler.SimpleProfiler", "pytorch_lightning.profiler.BaseProfiler", True),
        ("pytorch_lightning.loops.FitLoop", "pytorch_lightning.loops.Loop", True),
        ("pytorch_lightning.callbacks.ModelCheckpoint", "pytorch_lightning.LightningModule", False),
    ],
    ids=["a logger", "a deprecated profiler path", "a loop", "unrelated classes"],
)
def test_derives(cls: str, owner: str, expected: bool) -> None:
    assert derives(cls, owner) is expected
