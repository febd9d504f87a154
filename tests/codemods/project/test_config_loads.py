"""What a Python file's config uses reach (``codemods.project.config_loads``): one row per way of loading a config."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

from codemods.project.config_loads import (
    BASENAME,
    FROM_ROOT,
    NONE,
    PRIMARY,
    UNKNOWN,
    composes,
    config_loads,
    packaged_away,
    reaches,
)

HERE = os.path.abspath("proj/scripts")


def _loads(source: str) -> tuple[str, ...]:
    return config_loads(ast.parse(source), "proj/scripts/train.py", source)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param(
            '@hydra.main(config_path="../conf", config_name="x")\ndef main(cfg): ...\n',
            (
                os.path.normpath(os.path.join(HERE, "../conf")),
                PRIMARY + os.path.normpath(os.path.join(HERE, "../conf/x")),
            ),
            id="hydra.main: the config folder relative to the file, and its primary config",
        ),
        pytest.param(
            '@hydra_runner(config_path="conf", config_name="x")\ndef main(cfg): ...\n',
            (os.path.join(HERE, "conf"), PRIMARY + os.path.join(HERE, "conf/x")),
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
            'cfg = OmegaConf.load(os.path.join(tmpdir, "intent.yaml"))\n',
            (BASENAME + "intent.yaml",),
            id="a literal name joined to a computed folder: any config of that name",
        ),
        pytest.param(
            'path = os.path.join(tmpdir, "intent.yaml")\ncfg = OmegaConf.load(path)\n',
            (BASENAME + "intent.yaml",),
            id="a path bound once to a joined name",
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
        pytest.param(
            "@hydra_runner(config_path=None, config_name=None)\ndef main(cfg): ...\n",
            (NONE,),
            id="config_path=None: the config store's, no file",
        ),
        pytest.param(
            '@hydra_runner(config_name="App", schema=AppConfig)\ndef main(cfg): ...\n',
            (NONE,),
            id="NeMo's hydra_runner given a schema and no folder: the class is the config",
        ),
        pytest.param(
            '@hydra_runner(config_name="glue")\ndef main(cfg): ...\n',
            (HERE,),
            id="NeMo's hydra_runner without a folder searches its own ('.' is its default)",
        ),
        pytest.param(
            "cfg = EncDecCTCModelConfig()\ncfg.trainer.gpus = 1\nif __name__ == '__main__':\n    main()\n",
            (NONE,),
            id="a script that builds its config from a class and loads no file",
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
        pytest.param((NONE,), "/p/configs/a.yaml", False, id="a config built in code: no file"),
        pytest.param((BASENAME + "a.yaml",), "/p/x/a.yaml", True, id="a config of the name the code joins"),
        pytest.param((BASENAME + "a.yaml",), "/p/x/b.yaml", False, id="a config of another name"),
    ],
)
def test_reaches(loads: tuple[str, ...], config: str, expected: bool) -> None:
    assert reaches(loads, config, "/p") is expected


HYDRA = ("/p/conf", PRIMARY + "/p/conf/a")


@pytest.mark.parametrize(
    ("config", "names", "composed", "expected"),
    [
        pytest.param("/p/conf/a.yaml", frozenset(), False, True, id="the primary config"),
        pytest.param("/p/conf/trainer/gpu.yaml", frozenset(), False, True, id="a config group under the folder"),
        pytest.param("/p/conf/b.yaml", frozenset(), False, False, id="a sibling no command picks"),
        pytest.param("/p/conf/b.yaml", frozenset({"b"}), False, True, id="a sibling a --config-name picks"),
        pytest.param("/p/conf/b.yaml", None, False, True, id="names unknown: any config"),
        pytest.param("/p/conf/b.yaml", frozenset(), True, True, id="a primary with a defaults list: any sibling"),
    ],
)
def test_hydra_reach(config: str, names: frozenset[str] | None, composed: bool, expected: bool) -> None:
    assert reaches(HYDRA, config, "/p", names, composed) is expected


HYDRA_11 = frozenset({"hydra>=1.1"})


@pytest.mark.parametrize(
    ("loads", "config", "facts", "away"),
    [
        pytest.param(HYDRA, "/p/conf/hifigan/h.yaml", HYDRA_11, True, id="a group file's trainer: is the group's own"),
        pytest.param(HYDRA, "/p/conf/trainer/gpu.yaml", HYDRA_11, False, id="the trainer group is the trainer"),
        pytest.param(HYDRA, "/p/conf/a.yaml", HYDRA_11, False, id="the primary config"),
        pytest.param(HYDRA, "/p/conf/hifigan/h.yaml", frozenset(), False, id="Hydra 1.0 merged group files at the top"),
        pytest.param(
            HYDRA,
            "/p/conf/hifigan/h.yaml",
            HYDRA_11 | {"packaged:" + os.path.normpath("/p/conf/hifigan/h.yaml")},
            False,
            id="a file with its own @package line",
        ),
        pytest.param(
            HYDRA, "/p/conf/hifigan/h.yaml", HYDRA_11 | {"package-directive"}, False, id="a defaults list moves groups"
        ),
        pytest.param(
            (*HYDRA, "/p/conf/hifigan/h.yaml"), "/p/conf/hifigan/h.yaml", HYDRA_11, False, id="also loaded by its path"
        ),
        pytest.param((UNKNOWN, *HYDRA), "/p/conf/hifigan/h.yaml", HYDRA_11, False, id="an unknown load"),
    ],
)
def test_packaged_away(loads: tuple[str, ...], config: str, facts: frozenset[str], away: bool) -> None:
    assert packaged_away(loads, config, facts) is away


@pytest.mark.parametrize(
    ("files", "primary", "expected"),
    [
        pytest.param({"config.yaml": "trainer:\n  gpus: 1\n"}, "config", False, id="a file without defaults"),
        pytest.param({"config.yaml": "defaults:\n  - base\n"}, "config", True, id="a defaults list"),
        pytest.param(
            {"config.yaml": "trainer:\n  gpus: 1\n"},
            "config.yaml",
            False,
            id="config_name with its suffix is that file",
        ),
        pytest.param({}, "config", True, id="no file: a ConfigStore node may compose anything"),
    ],
)
def test_composes(tmp_path: Path, files: dict[str, str], primary: str, expected: bool) -> None:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert composes(str(tmp_path / primary)) is expected
