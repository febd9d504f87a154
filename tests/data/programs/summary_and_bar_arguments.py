"""1.5's weights_summary="full", progress_bar_refresh_rate and process_position: the callbacks 1.5.10 built from them."""

import pytorch_lightning as pl
import torch
from pytorch_lightning.callbacks import ModelSummary
from torch.utils.data import DataLoader, TensorDataset


class Tiny(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.layer = torch.nn.Linear(4, 1)

    def training_step(self, batch, batch_idx):
        (x,) = batch
        return self.layer(x).pow(2).mean()

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


def loader():
    generator = torch.Generator().manual_seed(0)
    return DataLoader(TensorDataset(torch.randn(8, 4, generator=generator)), batch_size=4)


def show(trainer):
    bar = trainer.progress_bar_callback
    print("OUT bar", bar.refresh_rate, bar.process_position)
    depths = [cb._max_depth for cb in trainer.callbacks if isinstance(cb, ModelSummary)]
    print("OUT summaries", depths)


if __name__ == "__main__":
    pl.seed_everything(1)
    show(pl.Trainer(max_epochs=1, logger=False, checkpoint_callback=False, weights_summary="full"))
    show(pl.Trainer(max_epochs=1, logger=False, checkpoint_callback=False, progress_bar_refresh_rate=3, process_position=2))
    trainer = pl.Trainer(max_epochs=1, logger=False, checkpoint_callback=False, process_position=1)
    show(trainer)
    trainer.fit(Tiny(), loader())
