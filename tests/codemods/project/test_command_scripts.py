"""What a command line runs, and which configs its overrides reach (``codemods.project.command_scripts``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from codemods.project.command_scripts import (
    NAMED_CONFIG,
    PICKS_CONFIG,
    command_picks,
    command_reaches,
    command_script,
    named_primary,
    script_candidates,
)
from codemods.project.config_loads import PRIMARY, UNKNOWN


@pytest.mark.parametrize(
    ("text", "script"),
    [
        pytest.param("python examples/asr/train.py ", "examples/asr/train.py", id="python runs a path"),
        pytest.param("!python tacotron2.py sample_rate=16000 ", "tacotron2.py", id="a notebook's shell line"),
        pytest.param("torchrun --nproc_per_node 2 train.py ", "train.py", id="a launcher's script"),
        pytest.param("sh 'python $NEMO/examples/x.py ", "$NEMO/examples/x.py", id="under a shell variable"),
        pytest.param("nemo-train ", "", id="no script: an installed command"),
        pytest.param("python -m pkg.train ", "", id="a module is no file name"),
        pytest.param("pip install numpy ", "", id="a word that only ends in py is none"),
    ],
)
def test_the_script_is_the_last_python_file_before_the_overrides(text: str, script: str) -> None:
    assert command_script(text) == script


@pytest.mark.parametrize(
    ("text", "picks"),
    [
        pytest.param("python t.py trainer.gpus=2 model.x=1", (), id="dotted overrides choose no group"),
        pytest.param("python t.py model=conformer +db=mysql trainer.gpus=2", ("db", "model"), id="groups"),
        pytest.param("python t.py --config-name big trainer.gpus=2", (NAMED_CONFIG + "big",), id="--config-name"),
        pytest.param("python t.py -cn=big.yaml trainer.gpus=2", (NAMED_CONFIG + "big",), id="-cn, with its suffix"),
        pytest.param("python t.py -cp x --config-name big trainer.gpus=2", (PICKS_CONFIG,), id="named in a folder"),
        pytest.param("python t.py -cp conf/other trainer.gpus=2", (PICKS_CONFIG,), id="-cp"),
    ],
)
def test_a_command_records_what_else_it_picks(text: str, picks: tuple[str, ...]) -> None:
    assert command_picks(text) == picks


SCRIPTS = ["proj/examples/tts/tacotron2.py", "proj/lib/tts/models/tacotron2.py", "proj/train.py", "proj/a/train.py"]


@pytest.mark.parametrize(
    ("script", "near", "found"),
    [
        pytest.param("train.py", "proj/README.md", ("proj/train.py",), id="beside the file that says it"),
        pytest.param("a/train.py", "proj/docs/x.md", ("proj/a/train.py",), id="from the project folder"),
        pytest.param("tacotron2.py", "proj/tutorials/t.ipynb", SCRIPTS[:2], id="every file of that name"),
        pytest.param("examples/tts/tacotron2.py", "proj/Jenkinsfile", SCRIPTS[:1], id="the longest common tail"),
        pytest.param("$ROOT/tts/tacotron2.py", "proj/run.sh", SCRIPTS[:1], id="what follows a variable"),
        pytest.param("other.py", "proj/run.sh", (), id="not a project file"),
    ],
)
def test_a_script_is_found_among_the_projects_files(script: str, near: str, found: tuple[str, ...]) -> None:
    assert script_candidates(script, near, "proj", SCRIPTS) == tuple(found)


@pytest.mark.parametrize(
    ("loads", "config", "picks", "composed", "reached"),
    [
        pytest.param(("conf", f"{PRIMARY}conf/config"), "conf/config.yaml", (), False, True, id="the primary config"),
        pytest.param(("conf", f"{PRIMARY}conf/config"), "conf/big.yaml", (), False, False, id="not a sibling"),
        pytest.param(("conf", f"{PRIMARY}conf/config"), "conf/v/big.yaml", (), False, False, id="not a group"),
        pytest.param(("conf", f"{PRIMARY}conf/config"), "conf/v/big.yaml", ("v",), False, True, id="a chosen group"),
        pytest.param(("conf", f"{PRIMARY}conf/config"), "conf/big.yaml", (PICKS_CONFIG,), False, None, id="picked"),
        pytest.param(("conf", f"{PRIMARY}conf/config"), "conf/big.yaml", (), True, None, id="a defaults list"),
        pytest.param(("conf",), "conf/big.yaml", (), False, None, id="no primary config"),
        pytest.param((UNKNOWN, f"{PRIMARY}conf/config"), "x.yaml", (), False, None, id="an unknown load"),
    ],
)
def test_a_plain_command_reaches_its_scripts_primary_config(
    loads: tuple[str, ...], config: str, picks: tuple[str, ...], composed: bool, reached: bool | None
) -> None:
    at = os.getcwd()
    assert command_reaches(loads, os.path.join(at, config), picks, composed) is reached


@pytest.mark.parametrize(
    ("present", "loads_after", "picks_after"),
    [
        pytest.param(True, ("conf", f"{PRIMARY}conf/big"), ("v",), id="the named file is the primary config"),
        pytest.param(False, ("conf", f"{PRIMARY}conf/config"), ("v", PICKS_CONFIG), id="no such file: any config"),
    ],
)
def test_a_command_naming_its_config_reaches_that_one(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    present: bool,
    loads_after: tuple[str, ...],
    picks_after: tuple[str, ...],
) -> None:
    """NeMo's ``python fastpitch.py --config-name fastpitch_align trainer.devices=[0]``: the script's folder's
    ``fastpitch_align.yaml``, not every config the script may load (its default ``fastpitch.yaml`` among them)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "config.yaml").write_text("trainer:\n  gpus: 2\n")
    if present:
        (tmp_path / "conf" / "big.yaml").write_text("trainer:\n  devices: 2\n")
    found = named_primary(("conf", f"{PRIMARY}conf/config"), ("v", NAMED_CONFIG + "big"))
    assert found == (loads_after, picks_after)
