"""What a command line runs, and which configs its overrides reach (``codemods.project.command_scripts``)."""

from __future__ import annotations

import os

import pytest

from codemods.project.command_scripts import (
    PICKS_CONFIG,
    command_picks,
    command_reaches,
    command_script,
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
        pytest.param("python t.py --config-name big trainer.gpus=2", (PICKS_CONFIG,), id="--config-name"),
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
