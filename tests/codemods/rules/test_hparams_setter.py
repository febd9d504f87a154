"""Rule ``hparams_setter``: ``self.hparams = x`` (the setter 1.1 deprecated and 1.3 removed; AttributeError since) in a
LightningModule's ``__init__`` becomes ``self.save_hyperparameters(x, logger=False)``, which 2.6.6 applies as 1.2.10's setter did
(``_set_hparams``, and the ``__init__`` argument's name for ``load_from_checkpoint``); elsewhere in the module a TODO.
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_transformed, run

RULE = "hparams_setter"
_HEAD = "import pytorch_lightning as pl\n\n\nclass M(pl.LightningModule):\n"

TRANSFORMED = [
    pytest.param(
        _HEAD + "    def __init__(self, hparams):\n        super().__init__()\n        self.hparams = hparams\n",
        _HEAD
        + "    def __init__(self, hparams):\n        super().__init__()\n        self.save_hyperparameters(hparams, logger=False)\n",
        id="the __init__ argument",
    ),
    pytest.param(
        _HEAD + "    def __init__(self, args):\n        super().__init__()\n        if args:\n"
        "            self.hparams = vars(args)  # as a dict\n",
        _HEAD + "    def __init__(self, args):\n        super().__init__()\n        if args:\n"
        "            self.save_hyperparameters(vars(args), logger=False)  # as a dict\n",
        id="in a block of __init__, a call's value, the comment kept",
    ),
]


@pytest.mark.parametrize(("before", "after"), TRANSFORMED)
def test_transformed(before: str, after: str) -> None:
    check_transformed(before, after, "2.6")


@pytest.mark.parametrize(
    "source",
    [
        pytest.param("class M:\n    def __init__(self, h):\n        self.hparams = h\n", id="not a LightningModule"),
        pytest.param(
            _HEAD + "    def __init__(self):\n        self.hparams = 'lr'\n", id="a literal would name an arg"
        ),
        pytest.param(
            _HEAD + "    hparams = None\n\n    def __init__(self, h):\n        self.hparams = h\n",
            id="a class that defines hparams itself",
        ),
        pytest.param(
            _HEAD + "    def __init__(self, h):\n        super().__init__()\n        self.hparams.update(h)\n",
            id="an update in place",
        ),
    ],
)
def test_left_alone(source: str) -> None:
    outcome = run(source, "2.6")
    assert outcome.source == source
    assert not [f for f in outcome.findings if f.rule == RULE]


def test_another_method_keeps_a_todo() -> None:
    source = _HEAD + "    def setup(self, stage):\n        self.hparams = {'n': 1}\n"
    outcome = run(source, "2.6")
    assert [f.kind for f in outcome.findings if f.rule == RULE] == ["todo"]
    assert "self.hparams = {'n': 1}" in outcome.source
    assert run(outcome.source, "2.6").source == outcome.source
