"""The closed loop: every recorded 1.5 case, rendered as source and run through ``migrate-trainer``, selects in
newcore what compat selects for the original flags (and so what Lightning 1.5.10 selected, where the compat
table lists no divergence).

This is the proof that a migrated file behaves as before. Every difference, and every case the codemod leaves
with a TODO ("not migrated"), is listed with its reason in tests/data/divergences.json (suite "migrated");
an unlisted difference, or a listed one that no longer happens, fails.
"""

from __future__ import annotations

import ast
import json

import pytest

from tests.parity import closed_loop, harness

REFERENCE = harness.load("1.5.10")
LISTED: dict[str, dict[str, str]] = json.loads(harness.DIVERGENCES.read_text())["migrated"]["cases"]
CASES = sorted(case_id for case_id, record in REFERENCE.items() if record["outcome"] != "unavailable")


@pytest.mark.parametrize("case_id", CASES)
def test_migrated_code_selects_what_compat_selects(case_id: str) -> None:
    case = REFERENCE[case_id]["case"]
    ours, _ = closed_loop.run(case)
    theirs = closed_loop.compat_selection(case)
    diff = harness.differences(ours, theirs)
    listed = LISTED.get(case_id)
    if listed is None:
        assert not diff, f"unlisted divergence of the migrated code from compat on the original: {diff}"
        return
    assert diff, "listed as a divergence but the migrated code now matches: remove it from divergences.json"
    assert listed["why"], "every divergence says why"
    assert (listed["lightning"], listed["ours"]) == (harness.summary(theirs), harness.summary(ours))


def test_every_listed_divergence_is_a_reference_case() -> None:
    assert set(LISTED) <= set(CASES)


def test_most_cases_go_round_the_loop() -> None:
    """Not-migrated cases and divergences stay the exception, and are counted, never skipped."""
    not_migrated = [c for c, e in LISTED.items() if e["ours"].startswith(closed_loop.NOT_MIGRATED)]
    assert len(LISTED) <= len(CASES) // 5
    assert 0 < len(not_migrated) < len(LISTED)


def test_rendered_source_is_real_1_5_code() -> None:
    source = closed_loop.render(
        {
            "gpus": 2,
            "plugins": [{"__class__": "DDPPlugin", "kwargs": {"find_unused_parameters": False}}],
            "strategy": {"__class__": "DDPPlugin", "kwargs": {"parallel_devices": [{"__device__": "cuda:0"}]}},
        }
    )
    assert source == (
        "import pytorch_lightning as pl\n"
        "import torch\n"
        "from pytorch_lightning.plugins import DDPPlugin\n\n"
        "trainer = pl.Trainer(gpus=2, plugins=[DDPPlugin(find_unused_parameters=False)],"
        " strategy=DDPPlugin(parallel_devices=[torch.device('cuda:0')]))\n"
    )
    ast.parse(source)


def test_migration_maps_legacy_flags_to_newcore_objects() -> None:
    source = closed_loop.render({"gpus": 2, "accelerator": "ddp", "plugins": [{"__class__": "DoublePrecisionPlugin"}]})
    migrated, todos = closed_loop.migrate(source)
    assert todos == ()
    kwargs = closed_loop.connector_kwargs(migrated)
    assert set(kwargs) == {"accelerator", "devices", "strategy", "plugins"}
    assert (kwargs["accelerator"], kwargs["devices"], kwargs["strategy"]) == ("gpu", 2, "ddp")
    assert type(kwargs["plugins"][0]).__name__ == "DoublePrecisionPlugin"


def test_a_todo_is_its_own_outcome() -> None:
    ours, migrated = closed_loop.run(
        {"kwargs": {"tpu_cores": 8, "num_processes": 3}, "hardware": {"cuda": 4}, "interactive": False}
    )
    assert ours == {"outcome": closed_loop.NOT_MIGRATED, "error": "not migrated: TODO from device_flags"}
    assert "TODO(migrate-trainer)" in migrated


def test_trainer_arguments_that_are_not_connector_flags_are_dropped() -> None:
    kwargs = closed_loop.connector_kwargs("import pytorch_lightning as pl\npl.Trainer(max_epochs=3, devices=2)\n")
    assert kwargs == {"devices": 2}
