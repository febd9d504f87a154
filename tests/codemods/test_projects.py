"""Whole-project fixtures: tests/codemods/projects/<case>/before/ is migrated as a tree and must become after/.

A project case exercises what single-file fixtures cannot: decisions made from the project index (a config key
read by Python elsewhere, a schema, a call that passes a section next to explicit flags). Every case runs
through the real CLI with ``-j1`` and ``-j2`` on fresh copies; both must give the same bytes, equal to
``after/`` (or to ``before/`` when the case has no ``after/``), and a second run must change nothing.
``options.json`` may set ``target``; ``findings.txt`` lists ``relpath:line rule kind`` rows that must be
reported (other findings may be reported too).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from codemods.cli import main

PROJECTS = Path(__file__).parent / "projects"
CASES = sorted(p for p in PROJECTS.iterdir() if p.is_dir())


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _migrate(tree: Path, target: str, jobs: int, *extra: str) -> int:
    return main([str(tree), "--target-version", target, "-j", str(jobs), "--no-progress", *extra])


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_project(case: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = json.loads((case / "options.json").read_text()) if (case / "options.json").exists() else {}
    target = str(settings.get("target", "2.0"))
    expected = _tree(case / "after") if (case / "after").is_dir() else _tree(case / "before")
    outputs = []
    for jobs in (1, 2):
        tree = tmp_path / f"j{jobs}"
        shutil.copytree(case / "before", tree)
        _migrate(tree, target, jobs, "--format", "json")
        outputs.append(_tree(tree))
        report = json.loads(capsys.readouterr().out or "[]")
        found = {
            f"{Path(row['path']).relative_to(tree).as_posix()}:{row['line']} {row['rule']} {row['kind']}"
            for row in report
        }
        if (case / "findings.txt").exists():
            wanted = {line for line in (case / "findings.txt").read_text().splitlines() if line.strip()}
            assert wanted <= found, f"missing findings: {sorted(wanted - found)}"
    assert outputs[0] == outputs[1], "-j1 and -j2 disagree"
    assert outputs[0].keys() == expected.keys()
    for name, data in expected.items():
        assert outputs[0][name].decode() == data.decode(), name
    again = tmp_path / "j1"
    _migrate(again, target, 1)
    capsys.readouterr()
    assert _tree(again) == outputs[0], "a second run must change nothing"
