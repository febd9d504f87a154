"""Where Hydra puts a config file's content (``codemods.project.scan_yaml.package_facts``): a ``# @package`` line
of its own, or a defaults list that moves a group with ``@``, keeps a group file's ``trainer:`` reachable as the
run's (``codemods.project.config_loads.packaged_away``)."""

from __future__ import annotations

import os

import pytest

from codemods.project.scan_yaml import package_facts

PATH = "conf/experiment/x.yaml"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "# @package _global_\ntrainer:\n  gpus: 1\n", (f"packaged:{os.path.normpath(PATH)}",), id="global"
        ),
        pytest.param("#@package trainer\ngpus: 1\n", (f"packaged:{os.path.normpath(PATH)}",), id="any package line"),
        pytest.param("defaults:\n  - model@trainer.model: small\n", ("package-directive",), id="a group moved with @"),
        pytest.param("defaults:\n  - model: small\ntrainer:\n  gpus: 1\n", (), id="a plain defaults list"),
        pytest.param("trainer:\n  gpus: 1  # mail me@host\n", (), id="an @ elsewhere"),
    ],
)
def test_package_facts(text: str, expected: tuple[str, ...]) -> None:
    assert package_facts(text, PATH) == expected
