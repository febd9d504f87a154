"""Which files a run looks at, and in which order (``codemods.files.discover``, walked with ``os.scandir``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from codemods.files import discover, discover_paths

TREE = {
    "x.py": "",
    "conf.yaml": "",
    "notes.md": "",
    "Makefile": "",
    "data.bin": "",
    "pkg/a.py": "",
    "pkg/sub/b.pyi": "",
    "pkg/sub/skip_me.py": "",
    "pkg/.gitignore": "sub/skip_me.py\n",
    "lightning_logs/version_0/hparams.yaml": "",
    "__pycache__/x.py": "",
    "ignored/i.py": "",
    ".gitignore": "ignored/\n*.yml\n",
    "old.yml": "",
    "z/last.py": "",
}


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name, text in TREE.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / ".git").mkdir()
    os.symlink(tmp_path / "pkg", tmp_path / "linked_pkg")  # a linked folder is not walked (nor is os.walk's)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize(
    ("given", "excludes", "gitignore", "text", "expected"),
    [
        pytest.param(
            ["."],
            [],
            True,
            False,
            ["conf.yaml", "x.py", "pkg/a.py", "pkg/sub/b.pyi", "z/last.py"],
            id="a folder: its files first, then each folder in name order; ignored and artefacts left out",
        ),
        pytest.param(
            ["./"],
            [],
            True,
            True,
            ["Makefile", "conf.yaml", "notes.md", "x.py", "pkg/a.py", "pkg/sub/b.pyi", "z/last.py"],
            id="with text files: docs and Makefiles too",
        ),
        pytest.param(
            ["."],
            [],
            False,
            False,
            [
                "conf.yaml",
                "old.yml",
                "x.py",
                "ignored/i.py",
                "pkg/a.py",
                "pkg/sub/b.pyi",
                "pkg/sub/skip_me.py",
                "z/last.py",
            ],
            id="--no-gitignore",
        ),
        pytest.param(
            ["pkg", "x.py"],
            ["sub"],
            True,
            False,
            ["pkg/a.py", "x.py"],
            id="--exclude prunes a folder; a file given is yielded as given",
        ),
        pytest.param(
            ["linked_pkg"], [], True, False, ["linked_pkg/a.py", "linked_pkg/sub/b.pyi"], id="a link given is walked"
        ),
    ],
)
def test_discover(
    tree: Path, given: list[str], excludes: list[str], gitignore: bool, text: bool, expected: list[str]
) -> None:
    found = list(discover_paths(given, excludes, gitignore, text))
    assert found == [str(Path(path)) for path in expected]
    assert [str(path) for path in discover(given, excludes, gitignore, text)] == found


def test_absolute_folders_give_absolute_paths(tree: Path) -> None:
    assert list(discover_paths([str(tree / "z")])) == [str(tree / "z" / "last.py")]
