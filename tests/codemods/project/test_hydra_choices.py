"""Which primary configs a project's commands pick with Hydra's ``--config-name``, and for which script
(``codemods.project.command_scripts``): the configs beside a script's primary one that it may load
(``codemods.project.config_loads.reaches``)."""

from __future__ import annotations

import pytest

from codemods.project.command_scripts import config_name_facts, group_pick_facts, script_config_names


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            b"python train.py --config-name=b trainer.gpus=2\n", ("config-name:b@train.py",), id="--config-name=x"
        ),
        pytest.param(
            b"python train.py --config-name b.yaml\n", ("config-name:b@train.py",), id="a name with its suffix"
        ),
        pytest.param(b"python train.py -cn fast\n", ("config-name:fast@train.py",), id="-cn x"),
        pytest.param(
            b"python train.py --config-path conf2 -cn x\n", ("config-name:x@train.py",), id="in another folder"
        ),
        pytest.param(
            b"cd examples && \\\n  python ex/bert.py \\\n  --config-name=b \\\n  trainer.gpus=2\n",
            ("config-name:b@bert.py",),
            id="the script of a command continued over lines",
        ),
        pytest.param(b"python -m pkg.train -cn x\n", ("config-name:x@",), id="no script: any script may be meant"),
        pytest.param(b"python train.py trainer.gpus=2  # a-cn x\n", (), id="not an option"),
        pytest.param(b"nothing here\n", (), id="no command"),
    ],
)
def test_config_name_facts(text: bytes, expected: tuple[str, ...]) -> None:
    assert config_name_facts(text) == expected


FACTS = ("config-name:a@bert.py", "config-name:b@", "tunes")


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        pytest.param("examples/bert.py", {"a", "b"}, id="its own command's name, and the one no script is told for"),
        pytest.param("examples/gpt.py", {"b"}, id="another script in the same folder does not take bert's name"),
    ],
)
def test_each_command_is_its_own(path: str, expected: set[str]) -> None:
    assert script_config_names(FACTS, path) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(b"python train.py +trainer/plugins=deepspeed\n", ("picks-group:trainer/plugins",), id="added"),
        pytest.param(
            b"# python train.py trainer/logger=wandb x=1\n", ("picks-group:trainer/logger",), id="in a comment"
        ),
        pytest.param(b"python train.py trainer=ddp model.lr=0.1\n", (), id="a top-level group is no nested pick"),
        pytest.param(b"see https://host/a/b=c\n", (), id="a URL"),
    ],
)
def test_group_pick_facts(text: bytes, expected: tuple[str, ...]) -> None:
    assert group_pick_facts(text) == expected
