"""What a person reads after a run (issue 26, item 8): one line per site and rule, report-only findings counted
but listed only with ``--verbose``, and a closing summary that fits on a screen. JSON and SARIF stay data: every
finding, exactly as the rules gave it.
"""

from __future__ import annotations

import functools
import io
import json
from pathlib import Path

import pytest

from codemods.cli import main
from codemods.model import Finding
from codemods.report import SUMMARY_ROWS, Row, fold, summary
from codemods.runner import FileResult

#: Two TODO sites (a removed member read twice on one line counts once), a fix naming two arguments on one line,
#: and one report-only finding (``Trainer()``: 2.x would pick every GPU).
TWO_TODOS = (
    "import pytorch_lightning as pl\n"
    "\n"
    "\n"
    "class Data(pl.LightningDataModule):\n"
    "    def loader(self):\n"
    "        return self.train_transforms if self.train_transforms is not None else None\n"
    "\n"
    "\n"
    "def build(n):\n"
    "    return pl.Trainer(gpus=n(), checkpoint_callback=False, weights_summary=None)\n"
    "\n"
    "\n"
    "def plain():\n"
    "    return pl.Trainer()\n"
)
#: A TODO and a fix of the same rule at one site: the line is the TODO's.
TODO_AND_FIX = (
    "import pytorch_lightning as pl\n"
    "\n"
    "\n"
    "def build(rate):\n"
    "    return pl.Trainer(progress_bar_refresh_rate=rate, weights_summary=None)\n"
)
ONE_TODO = "import pytorch_lightning as pl\n\n\ndef build(n):\n    return pl.Trainer(gpus=n())\n"
REPORT_ONLY = "import pytorch_lightning as pl\n\npl.Trainer()\n"
REPORT_LINE = "pkg/a.py:14:12 trainer_defaults implicit: 1.x trained on one CPU device"


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pkg").mkdir()
    return tmp_path


def _write(tree: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (tree / "pkg" / name).write_text(text)


def test_the_summary_closes_the_text_output(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tree, {"a.py": TWO_TODOS, "b.py": ONE_TODO})
    assert main(["--check", "-j", "1", "--no-progress", "pkg"]) == 1
    captured = capsys.readouterr()
    out = captured.out.splitlines()
    assert out[out.index("Summary:") :] == [
        "Summary:",
        "  TODOs left by file (3 in 2 files):",
        "    2  pkg/a.py",
        "    1  pkg/b.py",
        "  findings by rule       TODO     fix  report",
        "    device_flags            2       -       -",
        "    removed_members         1       -       -",
        "    removed_arguments       -       1       -",
        "    trainer_defaults        -       -       1",
        "    total                   3       1       1",
        "  1 report-only finding not listed: --verbose lists them (so do json and sarif)",
    ]
    assert captured.err == (
        "migrate-trainer: would rewrite 2 of 2 file(s); 3 TODO(s) left; 1 Trainer(s) left to the target's defaults "
        "(--accept-new-defaults accepts them); 0 failed\n"
    )


@pytest.mark.parametrize(
    ("flags", "listed"),
    [
        pytest.param([], False, id="without --verbose a report-only finding is counted, not listed"),
        pytest.param(["--verbose"], True, id="--verbose lists it"),
        pytest.param(["-v"], True, id="-v lists it"),
    ],
)
def test_report_only_findings_are_listed_with_verbose(
    tree: Path, flags: list[str], listed: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(tree, {"a.py": TWO_TODOS})
    assert main(["--check", "-j", "1", *flags, "pkg"]) == 1
    out = capsys.readouterr().out
    reports = [line for line in out.splitlines() if line.startswith(REPORT_LINE)]
    assert len(reports) == (1 if listed else 0), out
    assert reports == [] or reports[0].endswith(" (report only)")
    assert ("1 report-only finding not listed" in out) is not listed
    assert "    trainer_defaults        -       -       1" in out, "counted either way"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param(
            TWO_TODOS,
            [
                "pkg/a.py:6:16 removed_members LightningDataModule.train_transforms is gone at Lightning 2.6.6"
                " (removed in 1.7): use an attribute of your own data module (1.7 dropped it from"
                " LightningDataModule) (TODO)",
                "pkg/a.py:10:12 removed_arguments checkpoint_callback= is called enable_checkpointing= (gone in 1.7);"
                " weights_summary=None is enable_model_summary=False (gone in 1.7)",
                "pkg/a.py:10:23 device_flags gpus=n() is not a literal: pass accelerator= and devices= instead (e.g."
                ' accelerator="gpu", devices=n when n > 0, else accelerator="cpu"); 0 and None meant CPU (TODO)',
            ],
            id="one member read twice on a line is one TODO; two arguments of one call are one line naming both",
        ),
        pytest.param(
            TODO_AND_FIX,
            [
                "pkg/a.py:5:23 removed_arguments progress_bar_refresh_rate=rate (gone in 1.7): pass"
                " callbacks=[TQDMProgressBar(refresh_rate=N)] (pytorch_lightning.callbacks) (TODO)",
            ],
            id="a TODO and a fix of one rule at one site: the TODO's line",
        ),
    ],
)
def test_one_line_per_site_and_rule(
    tree: Path, source: str, expected: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    _write(tree, {"a.py": source})
    assert main(["--check", "-j", "1", "pkg"]) == 1
    out = capsys.readouterr().out
    assert out[: out.index("\nSummary:\n")].splitlines() == expected


#: A row of a.py's line 3: (column, rule, message, kind).
A3 = functools.partial(Row, "a.py", 3)


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        pytest.param(
            [A3(5, "r", "m", "todo"), A3(9, "r", "m", "todo")],
            [A3(5, "r", "m", "todo")],
            id="the same message twice on one line: the first",
        ),
        pytest.param(
            [A3(5, "r", "m1", "fix"), A3(5, "r", "m2", "fix"), A3(5, "r", "m1", "fix")],
            [A3(5, "r", "m1; m2", "fix")],
            id="other messages of the same kind: joined, each once, in order",
        ),
        pytest.param(
            [A3(5, "r", "done", "fix"), A3(9, "r", "decide", "todo"), A3(1, "r", "fyi", "report")],
            [A3(9, "r", "decide", "todo")],
            id="kinds differ: the most severe (todo > fix > report), at its own column",
        ),
        pytest.param(
            [A3(5, "r", "m", "report"), A3(5, "s", "m", "report"), Row("a.py", 4, 5, "r", "m", "report")],
            [A3(5, "r", "m", "report"), A3(5, "s", "m", "report"), Row("a.py", 4, 5, "r", "m", "report")],
            id="another rule or line is another site",
        ),
        pytest.param(
            [A3(5, "r", "m", "fix"), Row("b.py", 3, 5, "r", "m", "fix")],
            [A3(5, "r", "m", "fix"), Row("b.py", 3, 5, "r", "m", "fix")],
            id="another file is another site",
        ),
    ],
)
def test_fold(rows: list[Row], expected: list[Row]) -> None:
    assert fold(rows) == expected


def test_json_and_sarif_carry_every_finding(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tree, {"a.py": TWO_TODOS})
    assert main(["--check", "-j", "1", "--format", "json", "pkg"]) == 1
    rows = json.loads(capsys.readouterr().out)
    assert [list(row) for row in rows] == [["path", "line", "column", "rule", "message", "kind"]] * len(rows)
    assert [(row["line"], row["column"], row["rule"], row["kind"]) for row in rows] == [
        (6, 16, "removed_members", "todo"),
        (6, 41, "removed_members", "todo"),
        (10, 12, "removed_arguments", "fix"),
        (10, 12, "removed_arguments", "fix"),
        (10, 23, "device_flags", "todo"),
        (14, 12, "trainer_defaults", "report"),
    ]
    assert main(["--check", "-j", "1", "--format", "sarif", "pkg"]) == 1
    results = json.loads(capsys.readouterr().out)["runs"][0]["results"]
    assert [(r["ruleId"], r["message"]["text"]) for r in results] == [(row["rule"], row["message"]) for row in rows]


def test_github_annotations_fold_each_site_and_keep_reports(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tree, {"a.py": TWO_TODOS})
    assert main(["--check", "-j", "1", "--format", "github", "pkg"]) == 1
    titles = [line.split("title=")[1].split("::")[0] for line in capsys.readouterr().out.splitlines()]
    assert titles == ["removed_members", "removed_arguments", "device_flags", "trainer_defaults"]


@pytest.mark.parametrize(
    ("source", "argv", "code"),
    [
        pytest.param(
            REPORT_ONLY, ["--check"], 1, id="--check: a Trainer the target puts on every GPU without an error: exit 1"
        ),
        pytest.param(
            REPORT_ONLY,
            ["--check", "--accept-new-defaults"],
            0,
            id="--check --accept-new-defaults: a report-only finding leaves nothing to do: exit 0",
        ),
        pytest.param(
            REPORT_ONLY,
            ["--check", "--verbose", "--accept-new-defaults"],
            0,
            id="--check --verbose: listing it changes no exit code",
        ),
        pytest.param(ONE_TODO, ["--check"], 1, id="--check: a TODO left: exit 1"),
        pytest.param(TWO_TODOS, ["--check", "--verbose"], 1, id="--check --verbose: a change left: exit 1"),
        pytest.param(ONE_TODO, [], 1, id="a run that writes: exit 1"),
    ],
)
def test_exit_codes_do_not_depend_on_what_is_listed(tree: Path, source: str, argv: list[str], code: int) -> None:
    _write(tree, {"a.py": source})
    assert main([*argv, "-j", "1", "pkg"]) == code


def test_the_project_config_can_accept_the_new_defaults(tree: Path) -> None:
    _write(tree, {"a.py": REPORT_ONLY})
    assert main(["--check", "-j", "1", "pkg"]) == 1
    (tree / "pyproject.toml").write_text("[tool.migrate-trainer]\naccept-new-defaults = true\n")
    assert main(["--check", "-j", "1", "pkg"]) == 0


def test_after_a_run_the_check_fails_on_the_todos_it_wrote(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tree, {"a.py": ONE_TODO})
    assert main(["-j", "1", "--target-version", "1.7", "pkg"]) == 1
    capsys.readouterr()
    assert main(["--check", "-j", "1", "--target-version", "1.7", "pkg"]) == 1
    captured = capsys.readouterr()
    assert "  TODOs left by file (1 in 1 file):\n    1  pkg/a.py\n" in captured.out
    assert captured.err == "migrate-trainer: would rewrite 0 of 1 file(s); 1 TODO(s) left; 0 failed\n"


def test_stdin_hides_report_only_findings_unless_verbose(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for flags, listed in (([], False), (["-v"], True)):
        monkeypatch.setattr("sys.stdin", io.StringIO(REPORT_ONLY))
        assert main(["--check", *flags, "-"]) == 0
        assert ("trainer_defaults" in capsys.readouterr().err) is listed, flags


def test_a_clean_run_prints_no_summary(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tree, {"a.py": "x = 1\n"})
    assert main(["--check", "-j", "1", "pkg"]) == 0
    assert capsys.readouterr().out == ""


def test_the_summary_fits_on_a_screen() -> None:
    many = SUMMARY_ROWS + 2
    results = [
        FileResult(f"f{index:02}.py", "changed", (Finding(f"rule_{index:02}", "m", 1, 1, "todo"),))
        for index in range(many)
    ]
    lines = summary(results).splitlines()
    assert "    and 2 more files (2 TODOs)" in lines
    assert "    and 2 more rules       2       -       -" in lines
    assert "    total                 17       -       -" in lines
    assert len(lines) == 2 + 1 + SUMMARY_ROWS + 1 + 1 + SUMMARY_ROWS + 1 + 1


def test_with_diff_the_findings_and_summary_go_to_stderr(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tree, {"a.py": ONE_TODO})
    assert main(["--diff", "-j", "1", "pkg"]) == 1
    captured = capsys.readouterr()
    assert captured.out.startswith("--- a/pkg/a.py\n") and "Summary:" not in captured.out
    err = captured.err.splitlines()
    assert err[err.index("Summary:") + 1 : err.index("Summary:") + 3] == [
        "  TODOs left by file (1 in 1 file):",
        "    1  pkg/a.py",
    ]
    assert err[-1] == "migrate-trainer: would rewrite 1 of 1 file(s); 1 TODO(s) left; 0 failed"
