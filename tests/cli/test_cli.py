"""The migrate-trainer command line, in-process through main(argv) plus one real console-script run."""

from __future__ import annotations

import io
import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from codemods.cli import main

LEGACY = "from pytorch_lightning import Trainer\n\nTrainer(accelerator='ddp', gpus=2)\n"
#: LEGACY at the default target (the newest Lightning): gpus= is gone there too.
MIGRATED = "from pytorch_lightning import Trainer\n\nTrainer(strategy='ddp', accelerator='gpu', devices=2)\n"
BROKEN = "from pytorch_lightning import Trainer\n\nTrainer(accelerator='ddp'\n"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "legacy.py").write_text(LEGACY)
    (tmp_path / "pkg" / "clean.py").write_text("x = 1\n")
    return tmp_path


def test_rewrites_in_place_and_exits_1(project: Path) -> None:
    assert main(["-j", "1", "pkg"]) == 1
    assert (project / "pkg" / "legacy.py").read_text() == MIGRATED
    assert main(["-j", "1", "pkg"]) == 0, "a second run changes nothing"


@pytest.mark.parametrize("flag", ["--check", "--diff"])
def test_check_and_diff_write_nothing(project: Path, flag: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([flag, "pkg"]) == 1
    assert (project / "pkg" / "legacy.py").read_text() == LEGACY
    out = capsys.readouterr().out
    if flag == "--diff":
        assert (
            "-Trainer(accelerator='ddp', gpus=2)" in out
            and "+Trainer(strategy='ddp', accelerator='gpu', devices=2)" in out
        )
    else:
        assert "pkg/legacy.py:3:1 accelerator_strategy" in out


@pytest.mark.parametrize("absolute", [False, True], ids=["relative path", "absolute path"])
def test_diff_headers(project: Path, absolute: bool, capsys: pytest.CaptureFixture[str]) -> None:
    target = str(project / "pkg" / "legacy.py") if absolute else "pkg/legacy.py"
    assert main(["--diff", target]) == 1
    headers = [line for line in capsys.readouterr().out.splitlines() if line.startswith(("--- ", "+++ "))]
    expected = [f"--- {target}", f"+++ {target}"] if absolute else ["--- a/pkg/legacy.py", "+++ b/pkg/legacy.py"]
    assert headers == expected


def test_clean_tree_exits_0(project: Path) -> None:
    assert main(["--check", "pkg/clean.py"]) == 0


def test_syntax_error_among_good_files(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "pkg" / "broken.py").write_bytes(BROKEN.encode())
    assert main(["-j", "2", "pkg"]) == 3
    assert (project / "pkg" / "broken.py").read_bytes() == BROKEN.encode()
    assert (project / "pkg" / "legacy.py").read_text() == MIGRATED
    assert "pkg/broken.py:1:1 error cannot parse" in capsys.readouterr().out


def test_undecodable_file_is_left_alone(project: Path) -> None:
    data = b"# -*- coding: utf-8 -*-\nx = '\xff' # Trainer(gpus=2)\n"
    (project / "pkg" / "bad.py").write_bytes(data)
    assert main(["-j", "1", "pkg/bad.py"]) == 3
    assert (project / "pkg" / "bad.py").read_bytes() == data


def test_keeps_bom_crlf_and_permissions(project: Path) -> None:
    path = project / "pkg" / "win.py"
    path.write_bytes(b"\xef\xbb\xbf" + LEGACY.replace("\n", "\r\n").encode())
    path.chmod(0o751)
    assert main(["-j", "1", str(path)]) == 1
    assert path.read_bytes() == b"\xef\xbb\xbf" + MIGRATED.replace("\n", "\r\n").encode()
    assert stat.S_IMODE(path.stat().st_mode) == 0o751


def test_usage_errors_exit_2(project: Path) -> None:
    assert main(["--only", "no_such_rule", "pkg"]) == 2
    assert main(["missing_dir"]) == 2
    assert main([]) == 2
    with pytest.raises(SystemExit) as exc:
        main(["--target-version", "3.0", "pkg"])
    assert exc.value.code == 2


def test_only_skip_and_list_rules(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # At 1.6 accelerator_strategy is the only rule with something to do here (gpus= stays until 1.7).
    assert main(["--check", "--target-version", "1.6", "--skip", "accelerator_strategy", "pkg"]) == 0
    assert main(["--check", "--target-version", "1.6", "--only", "accelerator_strategy", "pkg"]) == 1
    capsys.readouterr()
    assert main(["--list-rules"]) == 0
    assert "accelerator_strategy" in capsys.readouterr().out


def test_exclude_and_gitignore(project: Path) -> None:
    (project / ".gitignore").write_text("generated/\n")
    (project / "generated").mkdir()
    (project / "generated" / "old.py").write_text(LEGACY)
    assert main(["--check", "--exclude", "pkg", "."]) == 0
    assert main(["--check", "--no-gitignore", "--exclude", "pkg", "."]) == 1


def test_pyproject_config(project: Path) -> None:
    (project / "pyproject.toml").write_text(
        '[tool.migrate-trainer]\ntarget-version = "1.6"\nskip = ["accelerator_strategy"]\n'
    )
    assert main(["--check", "pkg"]) == 0
    assert main(["--check", "--target-version", "2.6", "pkg"]) == 1, "the command line overrides the config"


@pytest.mark.parametrize("fmt", ["json", "sarif", "github"])
def test_formats(project: Path, fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--check", "--format", fmt, "pkg"]) == 1
    out = capsys.readouterr().out
    if fmt == "json":
        assert json.loads(out)[0]["rule"] == "accelerator_strategy"
    elif fmt == "sarif":
        assert json.loads(out)["runs"][0]["results"][0]["ruleId"] == "accelerator_strategy"
    else:
        assert out.startswith("::notice file=pkg/legacy.py,line=3")


def test_stdin_to_stdout(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(LEGACY))
    assert main(["-"]) == 1
    assert capsys.readouterr().out == MIGRATED


def test_yaml_config(project: Path) -> None:
    config = project / "config.yaml"
    config.write_text("# keep me\ntrainer:\n  gpus: 2  # per node\n  max_epochs: 3\nx: ${trainer.gpus}\n")
    assert main(["-j", "1", "--target-version", "1.7", str(config)]) == 1
    assert config.read_text() == (
        "# keep me\ntrainer:\n  accelerator: gpu\n  devices: 2  # per node\n  max_epochs: 3\nx: ${trainer.devices}\n"
    )


def test_console_script_subprocess(project: Path) -> None:
    script = shutil.which("migrate-trainer", path=os.path.dirname(sys.executable))
    assert script is not None, "pip install -e . to get the console script"
    done = subprocess.run([script, "--check", "pkg"], capture_output=True, text=True, cwd=project)
    assert done.returncode == 1
    assert "accelerator_strategy" in done.stdout
    version = subprocess.run([script, "--version"], capture_output=True, text=True)
    assert version.returncode == 0 and "migrate-trainer" in version.stdout
    assert "exit codes" in subprocess.run([script, "--help"], capture_output=True, text=True).stdout


def test_default_target_is_the_newest_release(capsys: pytest.CaptureFixture[str]) -> None:
    # 2.6.6 is the newest pytorch-lightning on the package index (legacy_api/LIGHTNING_2X.md).
    from legacy_api.renames import DEFAULT_TARGET, TARGET_VERSIONS

    assert TARGET_VERSIONS == ("1.6", "1.7", "1.8", "1.9", "2.0", "2.1", "2.2", "2.3", "2.4", "2.5", "2.6")
    assert TARGET_VERSIONS[-1] == DEFAULT_TARGET
    with pytest.raises(SystemExit):
        main(["--help"])
    assert f"(default: {DEFAULT_TARGET})" in " ".join(capsys.readouterr().out.split())


def test_a_reader_that_goes_away_gets_no_traceback(project: Path) -> None:
    """``migrate-trainer src | head -1``: the files are rewritten, and the closed pipe is no crash."""
    for index in range(300):  # a report longer than the pipe holds (64 KiB)
        (project / "pkg" / f"legacy_{index}.py").write_text(LEGACY)
    code = "import sys; from codemods.cli import main; sys.exit(main(['pkg']))"
    reader = subprocess.Popen(["head", "-c", "10"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    done = subprocess.run(
        [sys.executable, "-c", code],
        stdout=reader.stdin,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
    )
    assert reader.stdin is not None
    reader.stdin.close()
    reader.wait(timeout=30)
    assert "Traceback" not in done.stderr and "BrokenPipeError" not in done.stderr, done.stderr
    assert done.returncode == 1
