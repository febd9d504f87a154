"""Rule ``optimizer_frequency``: an optimizer dict with ``"frequency"`` in a LightningModule's
``configure_optimizers`` gets a TODO at 2.x targets (2.6.6 warns and ignores the key; 1.5.10 alternated the
optimizers by it). An lr-scheduler dict's ``"frequency"``, which 2.x still reads, is left alone.
"""

from __future__ import annotations

import pytest

from tests.codemods.helpers import check_noop, exercised, run

RULE = "optimizer_frequency"
MODULE = (
    "import torch\nfrom pytorch_lightning import LightningModule\n\n\nclass GAN(LightningModule):\n"
    "    def configure_optimizers(self):\n{body}"
)

TODO = [
    pytest.param(
        MODULE.format(
            body="        g = torch.optim.Adam(self.g.parameters())\n        d = torch.optim.Adam(self.d.parameters())\n"
            "        return [{'optimizer': g, 'frequency': 1}, {'optimizer': d, 'frequency': 5}]\n"
        ),
        id="two optimizers alternated by frequency: one TODO for the statement",
    ),
    pytest.param(
        MODULE.format(body='        first = {"optimizer": self.opt, "frequency": 5}\n        return [first]\n'),
        id="a dict bound to a name first",
    ),
    pytest.param(
        "import pytorch_lightning as pl\n\n\nclass GAN(pl.LightningModule):\n"
        "    def configure_optimizers(self):\n        return {'optimizer': self.opt, 'frequency': 2}\n",
        id="a dotted base, one optimizer",
    ),
]


@pytest.mark.parametrize("source", TODO)
def test_todo(source: str) -> None:
    outcome = run(source, "2.6")
    found = [f for f in outcome.findings if f.rule == RULE]
    assert [f.kind for f in found] == ["todo"]
    assert "manual" not in source and "automatic_optimization = False" in found[0].message
    assert outcome.source.count(f"[{RULE}]") == 1


NOOP = [
    pytest.param(
        MODULE.format(
            body="        opt = torch.optim.Adam(self.parameters())\n"
            "        sched = {'scheduler': torch.optim.lr_scheduler.StepLR(opt, 1), 'interval': 'step', 'frequency': 2}\n"
            "        return {'optimizer': opt, 'lr_scheduler': sched}\n"
        ),
        "2.6",
        id="an lr scheduler's frequency, which 2.x reads",
    ),
    pytest.param(
        MODULE.format(body="        return [{'optimizer': self.opt, 'frequency': 5}]\n"),
        "1.9",
        id="1.9 still alternates by it",
    ),
    pytest.param(
        "from pytorch_lightning import Trainer\n\n\nclass Mine:\n    def configure_optimizers(self):\n"
        "        return [{'optimizer': self.opt, 'frequency': 5}]\n",
        "2.6",
        id="the user's own class with a configure_optimizers",
    ),
    pytest.param(
        MODULE.format(
            body="        return self.opt\n\n    def schedule(self):\n        return {'optimizer': 1, 'frequency': 5}\n"
        ),
        "2.6",
        id="another method of the module",
    ),
]


@pytest.mark.parametrize(("source", "target"), NOOP)
def test_noop(source: str, target: str) -> None:
    check_noop(source, target=target)


def test_some_fixture_or_row_shows_the_rule() -> None:
    assert exercised(RULE)
