"""1.5's GPU properties read on a CPU run: num_gpus, root_gpu and data_parallel_device_ids (0, None, None)."""

import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, TensorDataset


class Tiny(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.layer = torch.nn.Linear(4, 1)

    def on_fit_start(self):
        print("OUT num_gpus", self.trainer.num_gpus, self.trainer.num_gpus > 0)
        print("OUT root_gpu", self.trainer.root_gpu)
        print("OUT ids", self.trainer.data_parallel_device_ids)

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
        max_epochs=1, logger=False, checkpoint_callback=False, progress_bar_refresh_rate=0, weights_summary=None
    )
    trainer.fit(Tiny(), loader())
