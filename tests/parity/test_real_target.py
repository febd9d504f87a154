"""The closed loop on the real target: every recorded 1.5 case, rendered as code, migrated at the default target and
run on real Lightning 2.x (recorded), selects what 1.5.10 selected, or carries a TODO because 2.x no longer has
what it selected. Each other difference is listed with its reason in tests/data/divergences.json (suite
"real-2.x", rendered into MIGRATION.md); an unlisted one, or a listed one that no longer happens, fails.

The 2.x half is recorded (CI has no Lightning): ``python tools/reference/migrated.py`` re-records it, and
:func:`test_the_recording_is_todays_migrated_code` says when it must.
"""

from __future__ import annotations

import json

import pytest

from tests.parity import harness, real_target

REFERENCE = harness.load("1.5.10")
RECORDING = json.loads((harness.DATA / "lightning-2.6.6-migrated.json").read_text(encoding="utf-8"))
RECORDED = RECORDING["results"]
LISTED: dict[str, dict[str, str]] = json.loads(harness.DIVERGENCES.read_text())["real-2.x"]["cases"]
#: The cases the old code could run: 1.5.10 built a Trainer for them.
CASES = sorted(case_id for case_id, record in REFERENCE.items() if record["outcome"] == "ok")
#: At least this share of the cases whose feature 2.x still has selects on 2.x what 1.5.10 selected.
SAME_SHARE = 0.97


def _verdict(case_id: str) -> tuple[dict[str, object], dict[str, object], dict[str, list[object]]]:
    return real_target.verdict(REFERENCE[case_id], RECORDED.get(case_id))


def test_the_recording_is_todays_migrated_code() -> None:
    fresh = {
        case_id: real_target.migrated_case(r["case"])
        for case_id, r in REFERENCE.items()
        if r["outcome"] != "unavailable"
    }
    stale = real_target.stale(RECORDING, fresh)
    assert not stale, (
        f"{len(stale)} migrated calls changed since the 2.x recording (first: {stale[0]!r}): "
        "run python tools/reference/migrated.py"
    )


@pytest.mark.parametrize("case_id", CASES)
def test_migrated_code_selects_on_real_2x_what_1_5_selected(case_id: str) -> None:
    theirs, ours, diff = _verdict(case_id)
    listed = LISTED.get(case_id)
    if not diff:
        assert listed is None, (
            "listed as a divergence but 2.x now selects what 1.5 did: run tools/reference/divergences.py"
        )
        return
    assert listed is not None, f"unlisted difference on real 2.x: {diff}"
    assert listed["why"], "every divergence says why"
    assert (listed["lightning"], listed["ours"]) == (real_target.summary(theirs), real_target.summary(ours))
    case = REFERENCE[case_id]["case"]
    if real_target.gone(theirs, case) and real_target.named_by_code(case):
        todos = (RECORDED.get(case_id) or {}).get("case", {}).get("todos")
        assert todos, "1.5 selected something 2.x no longer has: the migrated code must carry a TODO"


def _kept(case_id: str) -> bool:
    theirs, _, diff = _verdict(case_id)
    return not real_target.gone(theirs, REFERENCE[case_id]["case"]) and not real_target.environment_only(
        REFERENCE[case_id]["case"], diff
    )


def test_almost_every_case_whose_feature_2x_has_selects_the_same() -> None:
    kept = [case_id for case_id in CASES if _kept(case_id)]
    same = [case_id for case_id in kept if not _verdict(case_id)[2]]
    assert len(same) >= SAME_SHARE * len(kept), f"{len(same)} of {len(kept)} select what 1.5.10 selected"


def test_every_listed_divergence_is_a_case() -> None:
    assert set(LISTED) <= set(CASES)


def test_slurm_jobs_ask_for_tasks_per_node() -> None:
    """2.x refuses ``--ntasks`` alone: the migrated job's environment is that of an sbatch with --ntasks-per-node."""
    case = {"kwargs": {"num_nodes": 2}, "env": {"SLURM_NTASKS": "4", "SLURM_JOB_NAME": "train"}}
    assert real_target.job_environment(case)["SLURM_NTASKS_PER_NODE"] == "2"
    assert "SLURM_NTASKS_PER_NODE" not in real_target.job_environment({"kwargs": {}, "env": {"RANK": "0"}})


def test_selection_compares_the_launcher_only_where_the_old_code_chose_it() -> None:
    def record(strategy: str, launcher: str | None, start: str | None = None) -> dict[str, object]:
        selected: dict[str, object] = {
            "strategy": strategy,
            "accelerator": "CPUAccelerator",
            "precision_plugin": "Precision",
        }
        selected.update(precision_plugin_precision="32-true", parallel_devices=["cpu", "cpu"], launcher=launcher)
        selected.update(launcher_start_method=start, cluster_environment="LightningEnvironment")
        return {"outcome": "ok", "selected": selected}

    named = {"kwargs": {"strategy": "ddp_spawn", "accelerator": "cpu", "devices": 2}}
    implicit = {"kwargs": {"num_processes": 2}}
    spawned = record("DDPStrategy", "_MultiProcessingLauncher", "spawn")
    assert real_target.selection(spawned, named)["launcher"] == "spawn"
    assert "launcher" not in real_target.selection(spawned, implicit)
    assert real_target.selection(record("DDPStrategy", "_SubprocessScriptLauncher"), named)["launcher"] == "script"
