"""``--check`` fails while anything is left: code it would rewrite, and every TODO(migrate-trainer).

A TODO an earlier run wrote stays a finding (kind ``todo``, on its own line, with the rule from its ``[rule]``
suffix) until someone acts on it and deletes the comment; one inside a string is not a TODO.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from codemods.cli import main

NON_LITERAL = "import pytorch_lightning as pl\n\n\ndef build(n):\n    return pl.Trainer(gpus=n())\n"
MIGRATED_WITH_TODO = (
    "from newcore import Runner\n"
    "\n"
    "\n"
    "def build():\n"
    "    # TODO(migrate-trainer): pick the devices yourself [device_flags]\n"
    "    return Runner(accelerator='cpu')\n"
)
TODO_IN_STRINGS = (
    '"""Our TODO convention:\n'
    "\n"
    "    # TODO(migrate-trainer): this line is documentation [device_flags]\n"
    '"""\n'
    "\n"
    "EXAMPLE = '# TODO(migrate-trainer): also documentation [device_flags]'\n"
)


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pkg").mkdir()
    return tmp_path


def _json(capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = json.loads(capsys.readouterr().out)
    return rows


def test_a_file_with_only_an_old_todo_fails_the_check(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tree / "pkg" / "train.py").write_text(MIGRATED_WITH_TODO)
    assert main(["--check", "--format", "json", "-j", "1", "pkg"]) == 1
    rows = _json(capsys)
    assert rows == [
        {
            "path": str(Path("pkg") / "train.py"),
            "line": 5,
            "column": 5,
            "rule": "device_flags",
            "message": "pick the devices yourself",
            "kind": "todo",
        }
    ]
    # Writing has nothing to do (exit 0); the check keeps failing until the comment is gone.
    assert main(["-j", "1", "pkg"]) == 0
    assert (tree / "pkg" / "train.py").read_text() == MIGRATED_WITH_TODO
    (tree / "pkg" / "train.py").write_text(MIGRATED_WITH_TODO.replace(MIGRATED_WITH_TODO.splitlines()[4] + "\n", ""))
    capsys.readouterr()
    assert main(["--check", "-j", "1", "pkg"]) == 0


def test_a_todo_inside_a_string_is_not_left_work(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tree / "pkg" / "doc.py").write_text(TODO_IN_STRINGS)
    assert main(["--check", "--format", "json", "-j", "1", "pkg"]) == 0
    assert _json(capsys) == []


def test_todos_written_by_a_run_keep_the_check_failing(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tree / "pkg" / "build.py"
    path.write_text(NON_LITERAL)
    assert main(["-j", "1", "--target-version", "1.7", "pkg"]) == 1
    migrated = path.read_text()
    assert "# TODO(migrate-trainer): " in migrated
    capsys.readouterr()
    assert main(["--check", "--format", "github", "-j", "1", "--target-version", "1.7", "pkg"]) == 1
    captured = capsys.readouterr()
    warnings = [line for line in captured.out.splitlines() if line.startswith("::warning ")]
    assert len(warnings) == 1, captured.out  # the rule's TODO and the comment it wrote: one finding
    assert "title=device_flags" in warnings[0]
    assert "1 TODO(s) left" in captured.err
    assert path.read_text() == migrated


def test_sarif_lists_each_todo(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tree / "pkg" / "a.py").write_text(MIGRATED_WITH_TODO)
    (tree / "pkg" / "b.py").write_text(MIGRATED_WITH_TODO.replace("[device_flags]", "[amp_flags]"))
    assert main(["--check", "--format", "sarif", "-j", "2", "pkg"]) == 1
    results = json.loads(capsys.readouterr().out)["runs"][0]["results"]
    assert [(r["ruleId"], r["level"]) for r in results] == [("device_flags", "warning"), ("amp_flags", "warning")]
    assert [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in results] == [5, 5]


def test_stdin_check_fails_on_a_left_todo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(MIGRATED_WITH_TODO))
    assert main(["--check", "-"]) == 1
    monkeypatch.setattr("sys.stdin", io.StringIO(TODO_IN_STRINGS))
    assert main(["--check", "-"]) == 0


def test_yaml_todos_from_an_earlier_run_fail_the_check(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tree / "pkg" / "train.yaml").write_text(
        "trainer:\n"
        "  # TODO(migrate-trainer): pick the devices yourself [device_flags]\n"
        "  devices: 2  # TODO(migrate-trainer): check the count [device_flags]\n"
        "  name: 'run # TODO(migrate-trainer): a value, not a comment [device_flags]'\n"
    )
    assert main(["--check", "--format", "json", "-j", "1", "pkg"]) == 1
    # Only the TODOs: the default target may also report what its defaults change for this section.
    rows = [row for row in _json(capsys) if row["kind"] == "todo"]
    assert [(row["line"], row["column"], row["message"], row["kind"]) for row in rows] == [
        (2, 3, "pick the devices yourself", "todo"),
        (3, 15, "check the count", "todo"),
    ]
