"""A tiny LightningModule on random tensors and a fast Trainer, for the tier's tests of 1.5 calls on real 2.x.

Imports Lightning: import this module inside a test (the tier skips without Lightning).
"""

from __future__ import annotations

from typing import Any

import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, TensorDataset

#: Keyword arguments of a Trainer that runs a couple of batches and writes nothing.
FAST = {
    "max_epochs": 1,
    "limit_train_batches": 2,
    "limit_val_batches": 2,
    "limit_test_batches": 2,
    "num_sanity_val_steps": 0,
    "logger": False,
    "enable_checkpointing": False,
    "enable_progress_bar": False,
    "enable_model_summary": False,
}


def loader(n: int = 8, seed: int = 0) -> DataLoader[Any]:
    generator = torch.Generator().manual_seed(seed)
    return DataLoader(TensorDataset(torch.randn(n, 4, generator=generator), torch.randn(n, 1, generator=generator)), 4)


class Tiny(pl.LightningModule):
    """One linear layer; each step function returns its loss and records which stages ran."""

    def __init__(self) -> None:
        super().__init__()
        self.layer = torch.nn.Linear(4, 1)
        self.ran: list[str] = []

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.layer(x)

    def _loss(self, batch: Any) -> torch.Tensor:
        x, y = batch
        return torch.nn.functional.mse_loss(self(x), y)

    def training_step(self, batch: Any, batch_idx: int) -> torch.Tensor:
        self.ran.append("train")
        return self._loss(batch)

    def validation_step(self, batch: Any, batch_idx: int) -> torch.Tensor:
        self.ran.append("validate")
        return self._loss(batch)

    def test_step(self, batch: Any, batch_idx: int) -> torch.Tensor:
        self.ran.append("test")
        return self._loss(batch)

    def configure_optimizers(self) -> torch.optim.Optimizer:
        return torch.optim.SGD(self.parameters(), lr=0.1)


def trainer(**flags: Any) -> pl.Trainer:
    return pl.Trainer(**{**FAST, **flags})
