"""Which ``if`` tests split Lightning 1.x from 2.x (``codemods.python.version_guards``): one row a test."""

from __future__ import annotations

import ast

import pytest

from codemods.model import Options
from codemods.python.version_guards import guarded_lines
from codemods.runner import transform_text

IMPORTS = "import pytorch_lightning as pl\nimport lightning as L\nfrom pytorch_lightning import __version__ as plv\n"


@pytest.mark.parametrize(
    ("test", "splits"),
    [
        ('pl.__version__[0] == "2"', True),
        ("pl.__version__[0] != '1'", True),
        ('pl.__version__.startswith("2")', True),
        ('not pl.__version__.startswith("1")', True),
        ("int(pl.__version__[0]) >= 2", True),
        ('int(pl.__version__.split(".")[0]) < 2', True),
        ("int(pl.__version__[0]) > 1", True),
        ('pl.__version__ >= "2.0"', True),
        ("version.parse(pl.__version__) >= version.parse('2.0.0')", True),
        ('Version(L.__version__) < Version("2")', True),
        ('L.pytorch.__version__[0] == "2"', True),
        ('plv[0] == "2"', True),
        # not a split at 2.0, or not Lightning's version: migrated as usual
        ('pl.__version__ >= "1.6"', False),
        ('pl.__version__[0] == "3"', False),
        ("int(pl.__version__[0]) >= '2'", False),
        ('torch.__version__[0] == "2"', False),
        ('parse(pl.__version__) >= Version("2.0")', False),
        ("USE_2X", False),
    ],
)
def test_split_at_two(test: str, splits: bool) -> None:
    source = f"{IMPORTS}if {test}:\n    x = 1\nelse:\n    x = 2\n"
    assert bool(guarded_lines(ast.parse(source))) is splits


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
