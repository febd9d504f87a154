"""Which primary configs a project's commands pick with Hydra's ``--config-name`` (``codemods.project.scan``): the
configs beside a script's primary one that it may load (``codemods.project.config_loads.reaches``)."""

from __future__ import annotations

import pytest

from codemods.project.scan import _hydra_choices


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(b"python train.py --config-name=b trainer.gpus=2\n", ("config-name:b",), id="--config-name=x"),
        pytest.param(b"python train.py --config-name b.yaml\n", ("config-name:b",), id="a name with its suffix"),
        pytest.param(b"python train.py -cn fast\n", ("config-name:fast",), id="-cn x"),
        pytest.param(b"python train.py --config-path conf2 -cn x\n", ("config-name:x",), id="in another folder"),
        pytest.param(b"python train.py trainer.gpus=2  # a-cn x\n", (), id="not an option"),
        pytest.param(b"nothing here\n", (), id="no command"),
    ],
)
def test_hydra_choices(text: bytes, expected: tuple[str, ...]) -> None:
    assert _hydra_choices(text) == expected
