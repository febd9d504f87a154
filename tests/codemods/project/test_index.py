"""The project index: which texts are uses of a config key, and which are not (one row a case)."""

from __future__ import annotations

import pytest

from codemods.project.facts import may_tune
from codemods.project.index import ProjectIndex
from codemods.project.scan_file import index_text


def _keys(text: str, path: str = "src/a.py") -> list[tuple[str, int, str]]:
    return sorted((use.key, use.line, use.kind) for use in index_text(text, path).uses)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param("x = cfg.trainer.gpus\n", [("trainer.gpus", 1, "read")], id="attribute read on a config"),
        pytest.param("x = cfg['trainer']['gpus']\n", [("trainer.gpus", 1, "read")], id="subscripts"),
        pytest.param("x = cfg.trainer['gpus']\n", [("trainer.gpus", 1, "read")], id="attribute then subscript"),
        pytest.param("self.cfg.trainer.gpus = 2\n", [("trainer.gpus", 1, "read")], id="store on self.cfg"),
        pytest.param("x = self.hparams.trainer.gpus\n", [("trainer.gpus", 1, "read")], id="hparams node"),
        pytest.param("x = cfg.trainer.get('gpus', 0)\n", [("trainer.gpus", 1, "read")], id="get on the section"),
        pytest.param("OmegaConf.select(cfg, 'trainer.gpus')\n", [("trainer.gpus", 1, "read")], id="OmegaConf.select"),
        pytest.param(
            "OmegaConf.update(cfg, 'trainer.gpus', 0)\n", [("trainer.gpus", 1, "read")], id="OmegaConf.update"
        ),
        pytest.param("run(['trainer.gpus=0'])\n", [("trainer.gpus", 1, "override")], id="override in a test"),
        pytest.param("run('+trainer.gpus=0')\n", [("trainer.gpus", 1, "override")], id="appending override"),
        pytest.param("x = self.trainer.gpus\n", [], id="a Trainer property is not a config key"),
        pytest.param("x = pl_module.trainer.gpus\n", [], id="pl_module.trainer is a Trainer"),
        pytest.param(
            "x = self.lightning_module.trainer.checkpoint_callback\n",
            [],
            id="a strategy's self.lightning_module.trainer is a Trainer (issue 26: it held configs)",
        ),
        pytest.param("x = trainer.gpus\n", [], id="a bare trainer variable is a Trainer"),
        pytest.param('"""Set cfg.trainer.gpus to 2."""\n', [], id="prose in a docstring is not a use"),
        pytest.param("# cfg.trainer.gpus\nx = 1\n", [], id="a comment is not a use"),
        pytest.param(
            "def f(:\n  cfg.trainer.gpus\n", [("trainer.gpus", 2, "read")], id="unparseable python: a mention holds"
        ),
        pytest.param(
            "def {{ name }}(cfg):\n    cfg.train.trainer['gpus'] = 0\n    cfg['trainer']['max_epochs'] = 1\n",
            [("trainer.gpus", 2, "read"), ("trainer.max_epochs", 3, "read")],
            id="a cookiecutter template",
        ),
        pytest.param(
            "Trainer(auto_lr_find=cfg.trainer.auto_lr_find)\n",
            [("trainer.auto_lr_find", 1, "dropped_flag")],
            id="a tuning flag passed on",
        ),
        pytest.param(
            "Trainer(auto_lr_find=cfg.trainer.auto_scale_batch_size)\n",
            [("trainer.auto_scale_batch_size", 1, "read")],
            id="a key passed to another flag is a read",
        ),
    ],
)
def test_python_uses(source: str, expected: list[tuple[str, int, str]]) -> None:
    assert _keys(source) == expected


@pytest.mark.parametrize(
    ("text", "path", "expected"),
    [
        pytest.param(
            "python train.py trainer.gpus=2\n", "run.sh", [("trainer.gpus", 1, "override")], id="hydra override"
        ),
        pytest.param(
            "x\npython train.py ++trainer.gpus=2\n", "run.sh", [("trainer.gpus", 2, "override")], id="force-add"
        ),
        pytest.param(
            "python main.py fit --trainer.gpus 2\n", "README.md", [("trainer.gpus", 1, "override")], id="LightningCLI"
        ),
        pytest.param(
            "model:\n  n: ${trainer.gpus}\n", "c.yaml", [("trainer.gpus", 2, "interpolation")], id="interpolation"
        ),
        pytest.param(
            "data:\n  gpus: ${train.trainer.gpus}\n",
            "conf/nn/default.yaml",
            [("trainer.gpus", 2, "interpolation")],
            id="an interpolation of a nested section",
        ),
        pytest.param(
            "trainer:\n  gpus: 1\nmodel:\n  n: ${train.trainer.gpus}\n",
            "conf/c.yaml",
            [("trainer.gpus", 4, "interpolation")],
            id="a nested section's interpolation next to the file's own",
        ),
        pytest.param("call cfg.trainer.gpus here\n", "README.md", [], id="an attribute in prose is not an override"),
        pytest.param("nothing here\n", "README.md", [], id="no trainer at all"),
    ],
)
def test_text_uses(text: str, path: str, expected: list[tuple[str, int, str]]) -> None:
    assert _keys(text, path) == expected


def test_schemas_and_splats() -> None:
    source = (
        "from dataclasses import dataclass\n"
        "@dataclass\n"
        "class TrainerConf:\n"
        "    gpus: int = 0\n"
        "    max_epochs: int = 1\n"
        "class Other:\n"
        "    gpus: int = 0\n"
        "t = Trainer(strategy=s, **cfg.trainer)\n"
        "u = instantiate(cfg.trainer, plugins=[p])\n"
    )
    part = index_text(source, "a.py")
    assert [(s.name, s.fields) for s in part.schemas] == [("TrainerConf", (("gpus", "int"), ("max_epochs", "int")))]
    assert [(s.section, s.line, s.keywords) for s in part.splats] == [
        ("trainer", 8, ("strategy",)),
        ("trainer", 9, ("plugins",)),
    ]


def test_merge_is_sorted_and_deduplicated() -> None:
    one = index_text("a = cfg.trainer.gpus\n", "b.py")
    two = index_text("a = cfg.trainer.gpus\n", "a.py")
    merged = ProjectIndex.merge([one, two, one])
    assert [use.path for use in merged.uses] == ["a.py", "b.py"]
    assert merged == ProjectIndex.merge([two, one])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "gpus: 1  # TODO(migrate-trainer): trainer.gpus is still used at run.sh:2\n", [], id="a TODO comment"
        ),
        pytest.param("# python train.py trainer.gpus=2\nx: 1\n", [], id="a commented-out command"),
        pytest.param(
            "n: '${trainer.gpus}'  # copies trainer.gpus\n",
            [("trainer.gpus", 1, "interpolation")],
            id="quoted value, comment after",
        ),
        pytest.param(
            "cmd: 'a # trainer.gpus=2'\n", [("trainer.gpus", 1, "override")], id="a hash inside quotes is no comment"
        ),
    ],
)
def test_yaml_comments_are_not_uses(text: str, expected: list[tuple[str, int, str]]) -> None:
    assert _keys(text, "conf/a.yaml") == expected


def test_lightningcli_trainer_defaults_compete_with_the_config() -> None:
    source = 'cli = LightningCLI(Model, trainer_defaults={"plugins": DDPPlugin(), "max_epochs": 3})\n'
    assert [(s.section, s.keywords) for s in index_text(source, "a.py").splats] == [
        ("trainer", ("max_epochs", "plugins"))
    ]


@pytest.mark.parametrize(
    ("text", "path", "found"),
    [
        pytest.param(
            "- _target_: pytorch_lightning.plugins.DeepSpeedPlugin\n",
            "conf/trainer/plugins/ds.yaml",
            True,
            id="a plugins config group",
        ),
        pytest.param(
            "- _target_: pytorch_lightning.strategies.DeepSpeedStrategy\n",
            "conf/plugins/ds.yaml",
            True,
            id="the same, renamed",
        ),
        pytest.param(
            "plugins:\n  - class_path: pytorch_lightning.plugins.DDPPlugin\n",
            "conf/extra.yaml",
            True,
            id="a plugins block outside any trainer section",
        ),
        pytest.param(
            "trainer:\n  plugins:\n    - class_path: pytorch_lightning.plugins.DDPPlugin\n",
            "a.yaml",
            False,
            id="inside a trainer section: it moves with it",
        ),
        pytest.param(
            "strategy:\n  class_path: pytorch_lightning.strategies.DDPStrategy\n",
            "conf/s.yaml",
            False,
            id="a strategy, not in plugins",
        ),
        pytest.param(
            "- _target_: pytorch_lightning.plugins.NativeMixedPrecisionPlugin\n",
            "conf/plugins/amp.yaml",
            False,
            id="a precision plugin",
        ),
    ],
)
def test_strategy_plugins_that_hydra_may_compose_in(text: str, path: str, found: bool) -> None:
    from codemods.project.index import STRATEGY_PLUGIN

    assert any(use.key == STRATEGY_PLUGIN for use in index_text(text, path).uses) == found


@pytest.mark.parametrize(
    ("text", "tunes"),
    [
        pytest.param(b"trainer.tune(model)\n", True, id="a tune call"),
        pytest.param(b"trainer . tune (model)\n", True, id="spaced"),
        pytest.param(b"cli = LightningCLI(Model)\n", True, id="LightningCLI has a tune subcommand in 1.5"),
        pytest.param(b"if trainer.auto_lr_find:\n    pass\n", True, id="a tuning flag read back"),
        pytest.param(b"Trainer(auto_lr_find=cfg.trainer.auto_lr_find)\n", False, id="a config passed on"),
        pytest.param(b"Trainer(auto_lr_find=cfg.trainer.auto_scale_batch_size)\n", True, id="passed to another flag"),
        pytest.param(b"Trainer(auto_scale_batch_size='binsearch')\n", False, id="a flag is no read"),
        pytest.param(b"model.fine_tune(data)\n", False, id="another method"),
        pytest.param(b"trainer.tuner.lr_find(model)\n", True, id="the tuner runs Trainer.tune, reading both flags"),
        pytest.param(b"lr_find(trainer, model)\n", True, id="the module function reads trainer.auto_lr_find"),
        pytest.param(b"from pytorch_lightning.tuner import lr_finder\n", True, id="the tuner module"),
        pytest.param(
            b"# TODO(migrate-trainer): run Tuner(trainer).lr_find(model) (pytorch_lightning.tuner) [x]\n",
            False,
            id="this tool's own TODO",
        ),
        pytest.param(b"x = 1\n", False, id="clean"),
    ],
)
def test_may_tune(text: bytes, tunes: bool) -> None:
    assert may_tune(text) is tunes
