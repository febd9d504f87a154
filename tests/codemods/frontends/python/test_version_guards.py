"""Which ``if`` tests split Lightning 1.x from 2.x (``codemods.frontends.python.version_guards``): one row a test."""

from __future__ import annotations

import ast

import pytest

from codemods.frontends.python.version_guards import guarded_lines
from codemods.model import Options
from codemods.runner import transform_text

IMPORTS = "import pytorch_lightning as pl\nimport lightning as L\nfrom pytorch_lightning import __version__ as plv\n"


SPLIT = {4, 5, 6, 7}  # the if, its body, the else, its body: all of it is left as it is


@pytest.mark.parametrize(
    ("test", "guarded"),
    [
        ('pl.__version__[0] == "2"', SPLIT),
        ("pl.__version__[0] != '1'", SPLIT),
        ('pl.__version__.startswith("2")', SPLIT),
        ('not pl.__version__.startswith("1")', SPLIT),
        ("int(pl.__version__[0]) >= 2", SPLIT),
        ('int(pl.__version__.split(".")[0]) < 2', SPLIT),
        ("int(pl.__version__[0]) > 1", SPLIT),
        ('pl.__version__ >= "2.0"', SPLIT),
        ("version.parse(pl.__version__) >= version.parse('2.0.0')", SPLIT),
        ('Version(L.__version__) < Version("2")', SPLIT),
        ('L.pytorch.__version__[0] == "2"', SPLIT),
        ('plv[0] == "2"', SPLIT),
        # a branch for releases older than the target: that branch only
        ('pl.__version__ >= "1.6"', {7}),
        ('pl.__version__ < "1.6"', {5}),
        ("version.parse(pl.__version__) < version.parse('1.4.0')", {5}),
        ('Version(plv) >= Version("1.5.0")', {7}),
        # not a split, not older than the target, or not Lightning's version: migrated as usual
        ('parse(pl.__version__) < parse("2.6.0")', set()),
        ('pl.__version__ < "2.1"', set()),
        ('pl.__version__[0] == "3"', set()),
        ("int(pl.__version__[0]) >= '2'", set()),
        ('torch.__version__[0] == "2"', set()),
        ('parse(pl.__version__) >= Version("2.0")', set()),
        ('pl.__version__ <= "1.4"', set()),
        ("USE_2X", set()),
    ],
)
def test_split_at_two_and_older_branches(test: str, guarded: set[int]) -> None:
    source = f"{IMPORTS}if {test}:\n    x = 1\nelse:\n    x = 2\n"
    assert guarded_lines(ast.parse(source), (2, 0)) == guarded


def test_an_older_branch_is_older_than_the_target_only() -> None:
    source = f"{IMPORTS}if parse(pl.__version__) < parse('1.8'):\n    x = 1\n"
    assert guarded_lines(ast.parse(source), (1, 8)) == {5}
    assert guarded_lines(ast.parse(source), (1, 7)) == set()


def test_guarded_code_is_left_at_2x_and_migrated_below() -> None:
    source = (
        "import pytorch_lightning as pl\n\n"
        'if pl.__version__[0] == "2":\n'
        "    trainer = pl.Trainer(accelerator=ACC, strategy=STRATEGY, devices=2)\n"
        "else:\n"
        "    trainer = pl.Trainer(gpus=2)\n"
    )
    at_2x = transform_text(source, "train.py", Options(target="2.6"))
    assert at_2x.source == source and not at_2x.findings
    at_19 = transform_text(source, "train.py", Options(target="1.9"))
    assert 'pl.Trainer(accelerator="gpu", devices=2)' in at_19.source
