"""What a Python file's config uses reach (``codemods.project.config_loads``): one row per way of loading a config."""

from __future__ import annotations

import ast
import os

import pytest

from codemods.project.config_loads import FROM_ROOT, UNKNOWN, config_loads, reaches

HERE = os.path.abspath("proj/scripts")


def _loads(source: str) -> tuple[str, ...]:
    return config_loads(ast.parse(source), "proj/scripts/train.py", source)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param(
            '@hydra.main(config_path="../conf", config_name="x")\ndef main(cfg): ...\n',
            (os.path.normpath(os.path.join(HERE, "../conf")),),
            id="hydra.main: the config folder relative to the file",
        ),
        pytest.param(
            '@hydra_runner(config_path="conf", config_name="x")\ndef main(cfg): ...\n',
            (os.path.join(HERE, "conf"),),
            id="a wrapper taking hydra's config_path (NeMo's hydra_runner)",
        ),
        pytest.param(
            'with initialize(config_path="conf"):\n    cfg = compose("x")\n',
            (UNKNOWN, os.path.join(HERE, "conf")),
            id="initialize/compose: compose alone does not say where",
        ),
        pytest.param(
            'cfg = OmegaConf.load("conf/x.yaml")\n',
            (os.path.join(HERE, "conf/x.yaml"), FROM_ROOT + "conf/x.yaml"),
            id="a literal path: beside the file or from the working folder",
        ),
        pytest.param(
            "cfg = yaml.safe_load(open(path))\n",
            (UNKNOWN,),
            id="a path in a variable: every config",
        ),
        pytest.param(
            'cfg = OmegaConf.create({"trainer": {"gpus": 1}})\nmain()\n',
            (),
            id="a config built in code and a plain main() load no file",
        ),
        pytest.param("cli = LightningCLI(Model)\n", (UNKNOWN,), id="LightningCLI: its --config says"),
        pytest.param(
            "@hydra.main(config_path=CONF)\ndef main(cfg): ...\n",
            (UNKNOWN,),
            id="a folder that is not a literal",
        ),
    ],
)
def test_config_loads(source: str, expected: tuple[str, ...]) -> None:
    assert _loads(source) == tuple(sorted(expected))


@pytest.mark.parametrize(
    ("loads", "config", "expected"),
    [
        pytest.param((), "/p/any.yaml", True, id="no loads: a library module, every config"),
        pytest.param((UNKNOWN, "/p/conf"), "/p/other/x.yaml", True, id="an unknown load: every config"),
        pytest.param(("/p/conf",), "/p/conf/trainer/gpu.yaml", True, id="a file under the folder"),
        pytest.param(("/p/conf",), "/p/conf2/x.yaml", False, id="a folder that only shares a prefix"),
        pytest.param((FROM_ROOT + "configs/a.yaml",), "/p/configs/a.yaml", True, id="a path from the root"),
        pytest.param((FROM_ROOT + "configs/a.yaml",), "/p/configs/b.yaml", False, id="another file"),
    ],
)
def test_reaches(loads: tuple[str, ...], config: str, expected: bool) -> None:
    assert reaches(loads, config, "/p") is expected
