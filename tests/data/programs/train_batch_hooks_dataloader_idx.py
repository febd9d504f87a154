"""1.5's training batch hooks that still take dataloader_idx (a module's and a callback's): 1.5.10 passed 0."""

import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, TensorDataset


class Seen(pl.Callback):
    def on_train_batch_start(self, trainer, pl_module, batch, batch_idx, dataloader_idx):
        print("OUT callback start", batch_idx, dataloader_idx)

    def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx, dataloader_idx):
        print("OUT callback end", batch_idx, dataloader_idx, round(float(outputs["loss"]), 4))


class Tiny(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.layer = torch.nn.Linear(4, 1)

    def on_train_batch_start(self, batch, batch_idx, dataloader_idx):
        print("OUT module start", batch_idx, dataloader_idx)

    def on_train_batch_end(self, outputs, batch, batch_idx, dataloader_idx):
        print("OUT module end", batch_idx, dataloader_idx)

    def training_step(self, batch, batch_idx):
        (x,) = batch
        return self.layer(x).pow(2).mean()

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


def loader():
    generator = torch.Generator().manual_seed(0)
    return DataLoader(TensorDataset(torch.randn(8, 4, generator=generator)), batch_size=4)


if __name__ == "__main__":
    pl.seed_everything(1)
    trainer = pl.Trainer(
        max_epochs=1,
        logger=False,
        checkpoint_callback=False,
        progress_bar_refresh_rate=0,
        weights_summary=None,
        callbacks=[Seen()],
    )
    trainer.fit(Tiny(), loader())
