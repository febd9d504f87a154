"""The legacy programs of ``tests/data/programs``, unmigrated, print through ``python -m compat.lightning`` on the
real 2.x exactly what they printed on the real 1.5.10 (``tests/data/programs-1.5.10.json``, recorded by
``tools/reference/record_programs.py``): what ``training_epoch_end``/``validation_epoch_end``/``test_epoch_end``
receive (dict and bare-loss steps, None steps, the sanity check, manual optimization, accumulation), and a 1.x
``optimizer_step`` override."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.program_output import same_output

ROOT = Path(__file__).resolve().parents[3]
PROGRAMS = ROOT / "tests" / "data" / "programs"
RECORDED: dict[str, list[str]] = json.loads((PROGRAMS.parent / "programs-1.5.10.json").read_text(encoding="utf-8"))


def shim_out_lines(program: Path) -> list[str]:
    """The ``OUT`` lines of ``python -m compat.lightning PROGRAM`` in an empty folder (as the recorder runs it)."""
    with tempfile.TemporaryDirectory() as cwd:
        env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(ROOT)}
        env = {k: v for k, v in env.items() if not k.startswith("COMPAT_LIGHTNING")}
        done = subprocess.run(
            [sys.executable, "-m", "compat.lightning", str(program)],
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
    assert done.returncode == 0, done.stderr[-3000:]
    return [line for line in done.stdout.splitlines() if line.startswith("OUT")]


@pytest.mark.parametrize("name", sorted(RECORDED), ids=lambda name: f"{name} prints what 1.5.10 printed")
def test_the_unmigrated_program_prints_what_1_5_10_printed(name: str) -> None:
    got = shim_out_lines(PROGRAMS / f"{name}.py")
    assert same_output(got, RECORDED[name]), (got, RECORDED[name])
