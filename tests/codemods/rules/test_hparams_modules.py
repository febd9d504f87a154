"""Rule ``hparams_modules``: ``self.save_hyperparameters()`` in a LightningModule whose ``__init__`` takes an
``nn.Module`` gets one TODO (its checkpoints do not load with torch's ``weights_only`` default on the target's stack);
what leaves the module out, or is not a LightningModule's ``__init__``, is left alone."""

from __future__ import annotations

import pytest

from tests.codemods.helpers import run

RULE = "hparams_modules"


def _module(params: str, call: str, base: str = "pl.LightningModule") -> str:
    return (
        "import pytorch_lightning as pl\nimport torch\nfrom torch import nn\n\n\n"
        f"class Lit({base}):\n    def __init__(self, {params}):\n        super().__init__()\n        {call}\n"
    )


TODO = [
    pytest.param(_module("net: torch.nn.Module, lr: float = 0.1", "self.save_hyperparameters()"), "hold net", id="all"),
    pytest.param(_module("net: nn.Module", "self.save_hyperparameters(logger=False)"), "hold net", id="logger=False"),
    pytest.param(
        _module("a: nn.Module, b: nn.Module", "self.save_hyperparameters(ignore=['a'])"), "hold b", id="one ignored"
    ),
    pytest.param(_module("net: 'Optional[nn.Module]'", "self.save_hyperparameters('net')"), "hold net", id="named"),
]


@pytest.mark.parametrize(("source", "message"), TODO)
def test_todo_rows(source: str, message: str) -> None:
    outcome = run(source, "2.6")
    found = [f for f in outcome.findings if f.rule == RULE]
    assert len(found) == 1 and found[0].kind == "todo" and message in found[0].message, outcome.findings
    assert found[0].line == len(source.splitlines())
    assert run(outcome.source, "2.6").source == outcome.source, "a second run must change nothing"


NOOP = [
    pytest.param(_module("net: nn.Module", "self.save_hyperparameters(ignore=['net'])"), id="the module ignored"),
    pytest.param(_module("net: nn.Module, lr: float", "self.save_hyperparameters('lr')"), id="only lr saved"),
    pytest.param(_module("lr: float", "self.save_hyperparameters()"), id="no module argument"),
    pytest.param(_module("net: nn.Module", "self.save_hyperparameters(ignore=SKIP)"), id="ignore the code hides"),
    pytest.param(
        _module("net: nn.Module", "self.save_hyperparameters()", base="nn.Module"), id="not a LightningModule"
    ),
]


@pytest.mark.parametrize("source", NOOP)
def test_noop_rows(source: str) -> None:
    assert [f for f in run(source, "2.6").findings if f.rule == RULE] == []


def test_an_earlier_target_is_left_alone() -> None:
    source = _module("net: nn.Module", "self.save_hyperparameters()")
    assert [f for f in run(source, "1.9").findings if f.rule == RULE] == []
