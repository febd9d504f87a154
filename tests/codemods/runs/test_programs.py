"""Each legacy program of ``tests/data/programs``, migrated to the newest 2.x, prints on the real 2.x what the
legacy form printed on the real 1.5.10 (recorded by ``tools/reference/record_programs.py``), and the migration
left no TODO: the rewrites they exercise (``epoch_end_hooks``) are exact.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from pathlib import Path

import pytest

from codemods.cli import main
from tests.program_output import same_output

# The recorder's own runner, so both sides are run and read the same way (tools/ is not a package).
_SPEC = importlib.util.spec_from_file_location(
    "record_programs", Path(__file__).resolve().parents[3] / "tools" / "reference" / "record_programs.py"
)
assert _SPEC is not None and _SPEC.loader is not None
_RECORDER = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(_RECORDER)
PROGRAMS: Path = _RECORDER.PROGRAMS
out_lines = _RECORDER.out_lines

RECORDED = json.loads((PROGRAMS.parent / "programs-1.5.10.json").read_text(encoding="utf-8"))
#: Programs whose migration needs a person by design (1.x behaviour 2.x has no rewrite for): program -> the rules of
#: the TODOs the migration must leave. Their 1.x form runs unchanged through compat.lightning on 2.x and prints what
#: 1.5.10 printed (tests/compat/lightning/test_programs.py); migrated, the TODOs are what is checked.
NEEDS_A_PERSON = {
    "two_optimizers_gan": {"removed_hooks", "optimizer_frequency"},  # several optimizers: manual optimization
    "epoch_start_end_hooks": {"removed_hooks"},  # Callback.on_epoch_start/on_epoch_end
    "legacy_callback_hooks": {"removed_hooks"},  # Callback hooks 2.x dropped (on_init_start, on_batch_end, ...)
    # the removed Trainer arguments the shim applies at run time (ModelSummary depth, SWA, log_gpu_memory, ...) and
    # the connector attributes: rewrites the codemod does not make yet (TODOs)
    "resume_and_progress": {"removed_arguments", "removed_attributes"},
}


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_the_migrated_program_prints_what_1_5_10_printed(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    migrated = tmp_path / f"{name}.py"
    shutil.copy(PROGRAMS / f"{name}.py", migrated)
    # As a user runs it (the project scan included), and nothing is left for a person to do.
    main([str(tmp_path), "--target-version", "2.6", "--no-progress", "--format", "json"])
    todos = [row for row in json.loads(capsys.readouterr().out or "[]") if row["kind"] == "todo"]
    if name in NEEDS_A_PERSON:
        assert {row["rule"] for row in todos} == NEEDS_A_PERSON[name]
        return
    assert todos == []
    # The programs train on the CPU without device flags: 2.x's all-device default is accepted here.
    check = [str(tmp_path), "--check", "--accept-new-defaults", "--target-version", "2.6", "--no-progress"]
    assert main(check) == 0, capsys.readouterr().out
    got = out_lines(sys.executable, migrated)
    assert same_output(got, RECORDED[name]), (got, RECORDED[name])


def test_every_program_is_recorded() -> None:
    assert sorted(RECORDED) == sorted(path.stem for path in PROGRAMS.glob("*.py"))
