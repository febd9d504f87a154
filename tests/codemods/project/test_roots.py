"""``codemods.project.roots``: each file's project is the nearest folder with its own pyproject.toml, setup.py,
setup.cfg or .git, no higher than the folder the files given share; files under none form one project."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from codemods.project.roots import project_roots


@pytest.mark.parametrize(
    ("markers", "files", "expected"),
    [
        pytest.param([], ["a/x.py", "b/y.py"], {"a/x.py": ".", "b/y.py": "."}, id="no marker: one project"),
        pytest.param(
            ["a/pyproject.toml", "b/setup.py"], ["a/x.py", "b/y.py"], {"a/x.py": "a", "b/y.py": "b"}, id="two checkouts"
        ),
        pytest.param(
            ["setup.cfg", "tools/sub/.git"],
            ["src/x.py", "tools/sub/z.py", "tools/w.py"],
            {"src/x.py": ".", "tools/sub/z.py": "tools/sub", "tools/w.py": "."},
            id="a nested checkout is its own project; its parent keeps the rest",
        ),
        pytest.param(
            ["a/pyproject.toml"], ["a/deep/er/x.py", "c.py"], {"a/deep/er/x.py": "a", "c.py": "."}, id="deep files"
        ),
        pytest.param(
            [],
            ["args/setup.py", "args/x.py", "y.py"],
            {"args/setup.py": ".", "args/x.py": ".", "y.py": "."},
            id="a module named setup.py that packages nothing (solo-learn's args/setup.py)",
        ),
    ],
)
def test_project_roots(tmp_path: Path, markers: list[str], files: list[str], expected: dict[str, str]) -> None:
    for name in [*markers, *files]:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("from setuptools import setup\n" if name in markers else "import argparse\n")
    found = project_roots([str(tmp_path / name) for name in files])
    assert {os.path.relpath(p, tmp_path): os.path.relpath(r, tmp_path) for p, r in found.items()} == expected
