"""Rule ``legacy_keys`` (deprecated in 1.7): a 1.5 Trainer flag left in a dict or config the rules could not follow
to a Trainer is reported (kind "report"), in files that use Lightning (elsewhere: in a dict next to a flag only
a Trainer has, or one that becomes an argparse Namespace); a strategy name stored as the accelerator
of a container named for the Trainer, and a dict of Trainer flags in a Lightning file, get a TODO.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from codemods.cli import main
from codemods.frontends.python import transform_python
from codemods.model import Options
from tests.codemods.helpers import exercised

RULE = "legacy_keys"
_PL = "import pytorch_lightning as pl\n"

TODO = [
    pytest.param(_PL + 'params = {"gpus": [0], "lr": 3}\n', ["gpus"], id="a dict literal"),
    pytest.param(_PL + 'config["distributed_backend"] = "ddp"\n', ["distributed_backend"], id="a subscript store"),
    pytest.param(_PL + 'cfg.model.accelerator = "dp"\n', [], id="a strategy stored in another config: not read"),
    pytest.param(_PL + 'cfg["accelerator"] = "ddp"\n', ["accelerator"], id="a strategy stored in a config"),
    pytest.param(_PL + "conf = TrainerConf(gpus=n, precision=16)\n", ["gpus"], id="a config class"),
    pytest.param(_PL + 'cfg.trainer.accelerator = "gpu"\n', [], id="an accelerator name is no legacy"),
    pytest.param(_PL + 'pl.Trainer(**{"gpus": 2})\n', [], id="a splatted dict is migrated instead"),
    pytest.param('import json\nconfig = {"gpus": 2}\n', [], id="a file without Lightning"),
    pytest.param(
        'run(config={"trainer": {"gpus": 1, "max_epochs": 9}})\n', ["gpus"], id="Trainer flags, Lightning or not"
    ),
    pytest.param(
        'import argparse\nargs = {"lr": 1, "gpus": "0,1"}\nargs = argparse.Namespace(**args)\n',
        ["gpus"],
        id="a dict made the Namespace from_argparse_args reads",
    ),
    pytest.param("from argparse import Namespace\nNamespace(gpus=0)\n", ["gpus"], id="a Namespace's keyword"),
    pytest.param('import argparse\nargs = {"gpus": 0}\nf(**args)\n', [], id="a dict splatted elsewhere"),
    pytest.param(_PL + "from helpers import *\ntrainer = pl.Trainer(gpus=1)\n", ["gpus"], id="pl may be rebound"),
]


@pytest.mark.parametrize(("source", "flags"), TODO)
def test_rows(source: str, flags: list[str]) -> None:
    outcome = transform_python(source, Options(target="2.6"))
    reported = [f.message.split()[0] for f in outcome.findings if f.rule == RULE]
    assert reported == flags
    assert all(f.kind == "report" for f in outcome.findings if f.rule == RULE)


FLAG_DICTS = [
    pytest.param(
        _PL
        + 'class M:\n    def __init__(self, gpus):\n        self.trainer_params = {"gpus": gpus, "max_epochs": 3}\n',
        True,
        id="a dict of Trainer flags handed on through an attribute",
    ),
    pytest.param(_PL + 'HPARAMS = {"gpus": 2, "max_epochs": 10}\n', True, id="a dict of Trainer flags at module level"),
    pytest.param(
        _PL + 'ARGS = {"distributed_backend": "ddp", "accelerator": "ddp", "num_nodes": 2}\n',
        True,
        id="two legacy flags, one TODO",
    ),
    pytest.param(_PL + 'params = {"gpus": [0], "lr": 3}\n', False, id="no key only a Trainer takes: reported"),
    pytest.param(
        _PL + 'config.trainer = Munch({"gpus": args.gpus, "resume_from_checkpoint": None})\n',
        False,
        id="a config's Trainer section built in Python, read key by key: reported",
    ),
    pytest.param(
        'run(config={"trainer": {"gpus": 1, "max_epochs": 9}})\n', False, id="a file without Lightning: reported"
    ),
    pytest.param(
        _PL + 'kwargs = {"gpus": 2, "max_epochs": 3}\npl.Trainer(**kwargs)\n', None, id="splatted: migrated instead"
    ),
    pytest.param(
        _PL + 'cfg = OmegaConf.create({"trainer": {"gpus": 0, "max_epochs": 1}})\n',
        False,
        id="a config the flag rules read: reported",
    ),
]


@pytest.mark.parametrize(("source", "todo"), FLAG_DICTS)
def test_a_dict_of_trainer_flags_in_a_lightning_file_is_a_todo(source: str, todo: bool | None) -> None:
    """2.x's Trainer refuses the flag wherever the dict reaches one: ``--check`` must not pass on it (a report would
    let it); one TODO per dict, however many legacy flags it holds; a second run writes nothing."""
    outcome = transform_python(source, Options(target="2.6"))
    kinds = [f.kind for f in outcome.findings if f.rule == RULE]
    if todo is None:
        assert kinds == []
        return
    assert kinds == (["todo"] if todo else ["report"])
    assert (outcome.source != source) is todo
    assert transform_python(outcome.source, Options(target="2.6")).source == outcome.source


@pytest.mark.parametrize(
    "store",
    [
        'cfg.trainer.accelerator = "dp"',
        'trainer_config["accelerator"] = "ddp"',
        'self.trainer_kwargs["accelerator"] = "ddp"',
    ],
)
def test_a_strategy_stored_as_a_trainer_configs_accelerator_is_a_todo(store: str) -> None:
    outcome = transform_python(_PL + store + "\n", Options(target="2.6"))
    assert [(f.rule, f.kind) for f in outcome.findings] == [(RULE, "todo")]
    assert outcome.source.splitlines()[1].startswith("# TODO(migrate-trainer): accelerator=")
    assert transform_python(outcome.source, Options(target="2.6")).source == outcome.source


@pytest.mark.parametrize(
    ("store", "kind"),
    [
        pytest.param(
            'trainer_config["distributed_backend"] = "ddp"', "todo", id="a strategy flag into a Trainer's dict"
        ),
        pytest.param('self.trainer_kwargs["gpus"] = n', "todo", id="a device flag into an object's Trainer dict"),
        pytest.param('params["gpus"] = 1', "report", id="into a dict not named for the Trainer: reported"),
        pytest.param(
            'trainer_kwargs = {}\ntrainer_kwargs["gpus"] = 1\npl.Trainer(**trainer_kwargs)',
            None,
            id="into a dict the flag rules follow: theirs",
        ),
    ],
)
def test_a_removed_flag_stored_into_a_trainer_dict_is_a_todo(store: str, kind: str | None) -> None:
    """taming-transformers' ``trainer_config["distributed_backend"] = "ddp"``, later the Namespace the Trainer is
    built from: 2.x's Trainer refuses it, so ``--check`` must not pass on it."""
    outcome = transform_python(_PL + store + "\n", Options(target="2.6"))
    assert [f.kind for f in outcome.findings if f.rule == RULE] == ([kind] if kind else [])
    assert transform_python(outcome.source, Options(target="2.6")).source == outcome.source


@pytest.mark.parametrize(
    "source",
    [
        pytest.param(_PL + 'HPARAMS = {"gpus": 2, "max_epochs": 10}\n', id="a dict of Trainer flags"),
        pytest.param(_PL + 'trainer_config["gpus"] = n\n', id="a store into a Trainer's dict"),
    ],
)
def test_a_flag_the_target_still_takes_is_only_reported(source: str) -> None:
    """1.7 to 1.9 deprecate ``gpus`` and still take it: no TODO saying the Trainer refuses it, a report."""
    outcome = transform_python(source, Options(target="1.9"))
    assert [f.kind for f in outcome.findings if f.rule == RULE] == ["report"]
    assert outcome.source == source


def test_not_before_the_flags_were_deprecated() -> None:
    outcome = transform_python(_PL + 'params = {"gpus": [0]}\n', Options(target="1.6"))
    assert not [f for f in outcome.findings if f.rule == RULE]


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)


@pytest.mark.parametrize(
    ("script", "reported"),
    [("Trainer.add_argparse_args(parser)\n", True), ("Trainer.from_argparse_args(args)\n", True), ("pass\n", False)],
)
def test_a_top_level_gpus_is_reported_only_where_a_parser_takes_trainer_flags(
    script: str, reported: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "config.yaml").write_text("gpus: 1\nbatch_size: 8\n", encoding="utf-8")
    (tmp_path / "main.py").write_text("from pytorch_lightning import Trainer\n" + script, encoding="utf-8")
    main([str(tmp_path), "--no-progress", "--format", "json"])
    rows = json.loads(capsys.readouterr().out)
    found = [(row["path"], row["line"], row["kind"]) for row in rows if row["rule"] == RULE]
    assert found == ([(str(tmp_path / "config.yaml"), 1, "report")] if reported else [])
