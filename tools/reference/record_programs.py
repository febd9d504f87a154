"""Record what small legacy programs print on a real Lightning release: the 1.x side of a rewrite's check.

A program (``tests/data/programs/*.py``, our own code) exercises an API a rule rewrites and prints the facts that
matter on lines starting with ``OUT``. This script runs each on the given release and writes those lines to
``tests/data/programs-<release>.json``; the ``lightning`` tier (``tests/codemods/runs``) migrates each program,
runs it on the real newest 2.x and requires the same lines: both sides run, the legacy form on the old release,
the rewritten form on the new one.

Usage: ``python tools/reference/record_programs.py [--release 1.5.10] [--python PATH]`` (default: the venv
``make_venvs.py`` builds for the release).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = ROOT / "tests" / "data" / "programs"
TIMEOUT_S = 300


def out_lines(python: str, program: Path) -> list[str]:
    """The ``OUT`` lines ``program`` prints under ``python``, run in an empty folder; raises if it fails."""
    with tempfile.TemporaryDirectory() as cwd:
        env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": ""}
        done = subprocess.run(
            [python, str(program)], cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT_S
        )
    if done.returncode:
        raise RuntimeError(f"{program.name} failed under {python}:\n{done.stderr[-3000:]}")
    return [line for line in done.stdout.splitlines() if line.startswith("OUT")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--release", default="1.5.10")
    parser.add_argument("--python", help="the interpreter of a venv holding the release")
    options = parser.parse_args(argv)
    python = options.python
    if python is None:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from make_venvs import VENV_ROOT

        python = str(VENV_ROOT / options.release / "bin" / "python")
    recorded = {program.stem: out_lines(python, program) for program in sorted(PROGRAMS.glob("*.py"))}
    out = ROOT / "tests" / "data" / f"programs-{options.release}.json"
    out.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{out}: {len(recorded)} programs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
