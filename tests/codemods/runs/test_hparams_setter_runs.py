"""Rule ``hparams_setter``'s rewrite run on the real Lightning 2.x: the migrated module builds (the 1.2 setter it
replaces raises AttributeError there), holds what 1.2.10's setter held (``_set_hparams``: an AttributeDict of a
Namespace's or dict's values, the ``__init__`` argument's name), and comes back from a real checkpoint with them."""

from __future__ import annotations

import argparse
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tests.codemods.helpers import run

LEGACY = textwrap.dedent(
    """
    import pytorch_lightning as pl
    import torch


    class Classifier(pl.LightningModule):
        def __init__(self, hparams):
            super().__init__()
            self.hparams = hparams
            self.layer = torch.nn.Linear(self.hparams.width if hasattr(self.hparams, "width") else 2, 1)

        def training_step(self, batch, batch_idx):
            return self.layer(batch[0]).sum()

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.1)
    """
)


def _module() -> Any:
    migrated = run(LEGACY, "2.6").source
    assert "self.save_hyperparameters(hparams, logger=False)" in migrated
    namespace: dict[str, Any] = {}
    exec(compile(migrated, "migrated.py", "exec"), namespace)
    return namespace["Classifier"]


@pytest.mark.filterwarnings("ignore::UserWarning", "ignore::DeprecationWarning", "ignore::FutureWarning")
@pytest.mark.parametrize("given", [argparse.Namespace(width=2, lr=0.1), {"width": 2, "lr": 0.1}], ids=["ns", "dict"])
def test_the_migrated_module_keeps_its_hyperparameters_through_a_checkpoint(given: Any, tmp_path: Path) -> None:
    import pytorch_lightning as pl
    import torch

    classifier = _module()
    model = classifier(given)
    assert dict(model.hparams) == {"width": 2, "lr": 0.1} and model._hparams_name == "hparams"
    data = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.randn(4, 2)), batch_size=2)
    trainer = pl.Trainer(
        max_steps=1, logger=False, enable_checkpointing=False, enable_progress_bar=False, enable_model_summary=False
    )
    trainer.fit(model, data)
    path = tmp_path / "model.ckpt"
    trainer.save_checkpoint(path)
    back = classifier.load_from_checkpoint(path, weights_only=False)
    assert dict(back.hparams) == {"width": 2, "lr": 0.1}
