"""Rule ``argparse_flags`` (deprecated in 1.7): --gpus-style argparse options are reported (not rewritten) unless provably fed to the Trainer.

Its own rows; the fixture cases that show it run in tests/codemods/test_fixtures.py, the flag rules' rows
in tests/codemods/test_selection_policy.py.
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_todo, exercised, run

RULE = "argparse_flags"


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)


# Lightning 2.0 removed the Trainer's argparse helpers: from 2.0 on each call gets one TODO naming what replaces it.
TODO = [
    pytest.param(
        "from pytorch_lightning import Trainer\n\ndef f(args):\n    return Trainer.from_argparse_args(args)\n",
        "2.0",
        RULE,
        id="Trainer.from_argparse_args",
    ),
    pytest.param(
        "import pytorch_lightning as pl\n\ndef f(parser):\n    return pl.Trainer.add_argparse_args(parser)\n",
        "2.0",
        RULE,
        id="pl.Trainer.add_argparse_args",
    ),
    pytest.param(
        "from pytorch_lightning import Trainer\n\ndef f(parser):\n    return Trainer.parse_argparser(parser)\n",
        "2.6",
        RULE,
        id="Trainer.parse_argparser",
    ),
    pytest.param(
        "from pytorch_lightning.utilities.argparse import add_argparse_args\nfrom pytorch_lightning import Trainer\n\n"
        "def f(parser):\n    return add_argparse_args(Trainer, parser)\n",
        "2.0",
        RULE,
        id="pytorch_lightning.utilities.argparse.add_argparse_args",
    ),
    pytest.param(
        "import flash\n\ndef f(args):\n    return flash.Trainer.from_argparse_args(args)\n",
        "2.0",
        RULE,
        id="flash.Trainer.from_argparse_args",
    ),
    pytest.param(
        "from pytorch_lightning.utilities.argparse import parse_env_variables\n",
        "2.6",
        RULE,
        id="importing a removed helper of utilities.argparse: the import fails first",
    ),
    pytest.param(
        "from pytorch_lightning import LightningDataModule\n\n\nclass Data(LightningDataModule):\n    pass\n\n\n"
        "data = Data.parse_argparser(args)\n",
        "2.6",
        RULE,
        id="LightningDataModule.parse_argparser on the file's own DataModule",
    ),
    pytest.param(
        "from pytorch_lightning import Trainer\n\ntrainer = Trainer()\nnames = trainer.get_deprecated_arg_names\n",
        "2.6",
        RULE,
        id="a removed helper read through a Trainer instance",
    ),
]


@pytest.mark.parametrize(("source", "target", "rule"), TODO)
def test_removed_helpers_get_a_todo(source: str, target: str, rule: str) -> None:
    check_todo(source, target, rule)


@pytest.mark.parametrize(
    "source",
    [
        pytest.param(
            "from pytorch_lightning import Trainer\n\ndef f(args):\n    return Trainer.from_argparse_args(args)\n"
        ),
        pytest.param("def f(parser, Trainer):\n    return parser.parse_args()\n"),
    ],
)
def test_before_2_0_the_helpers_stay_without_a_todo(source: str) -> None:
    outcome = run(source, "1.9")
    assert outcome.source == source
    assert not any(f.rule == RULE and f.kind == "todo" for f in outcome.findings)


@pytest.mark.parametrize(
    "source",
    [
        pytest.param(
            "from pytorch_lightning.utilities.argparse import _parse_env_variables\n",
            id="a helper 2.x still has (private)",
        ),
        pytest.param("from mytools.argparse import from_argparse_args\n", id="a module of the project's own"),
        pytest.param(
            "from pytorch_lightning import Trainer\n\nclass Box:\n    get_deprecated_arg_names = 1\n\n"
            "box = Box()\nnames = box.get_deprecated_arg_names\n",
            id="the same attribute on an object that is no Trainer",
        ),
    ],
)
def test_no_todo_at_2_6(source: str) -> None:
    assert not any(f.rule == RULE and f.kind == "todo" for f in run(source, "2.6").findings)


def test_the_helper_gone_in_1_8_says_so() -> None:
    source = "from pytorch_lightning import Trainer\n\ntrainer = Trainer()\nnames = trainer.get_deprecated_arg_names\n"
    (found,) = [f for f in run(source, "2.6").findings if f.rule == RULE]
    assert "is gone in 1.8" in found.message


def test_one_finding_per_call_at_2_0() -> None:
    source = "from pytorch_lightning import Trainer\n\ndef f(parser):\n    return Trainer.add_argparse_args(parser)\n"
    findings = [f for f in run(source, "2.0").findings if f.rule == RULE]
    assert [(f.kind, f.message.split(":")[0]) for f in findings] == [
        ("todo", "Trainer.add_argparse_args is gone in 2.0")
    ]


def test_one_todo_per_file_for_the_parser_and_the_trainer_built_from_it() -> None:
    from codemods.frontends.python import transform_python
    from codemods.model import Options

    source = (
        "import pytorch_lightning as pl\n"
        "parser = pl.Trainer.add_argparse_args(parser)\n"
        "args = parser.parse_args()\n"
        "trainer = pl.Trainer.from_argparse_args(args)\n"
    )
    findings = [f for f in transform_python(source, Options(target="2.6")).findings if f.rule == "argparse_flags"]
    assert [(f.line, f.kind) for f in findings] == [(2, "todo"), (4, "report")]
