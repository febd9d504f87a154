"""A callback's on_keyboard_interrupt (deprecated in 1.5, removed in 1.7): a KeyboardInterrupt in the third training
step; the hook prints where it ran. 2.x exits after its on_exception hooks (1.5 returned from fit), hence the
SystemExit guard. Prints one line per hook call."""

import contextlib

import pytorch_lightning as pl
import torch
from pytorch_lightning.callbacks import Callback
from torch.utils.data import DataLoader, TensorDataset


class Saver(Callback):
    def on_keyboard_interrupt(self, trainer, pl_module):
        print("OUT interrupted", trainer.current_epoch, pl_module.seen)


class Model(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.layer = torch.nn.Linear(4, 1)
        self.seen = 0

    def training_step(self, batch, batch_idx):
        self.seen += 1
        if batch_idx == 2:
            raise KeyboardInterrupt
        (x,) = batch
        return self.layer(x).pow(2).mean()

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


if __name__ == "__main__":
    pl.seed_everything(1)
    generator = torch.Generator().manual_seed(0)
    data = DataLoader(TensorDataset(torch.randn(16, 4, generator=generator)), batch_size=4)
    trainer = pl.Trainer(
        max_epochs=2,
        logger=False,
        checkpoint_callback=False,
        progress_bar_refresh_rate=0,
        weights_summary=None,
        callbacks=[Saver()],
    )
    with contextlib.suppress(SystemExit):
        trainer.fit(Model(), data)
    print("OUT done")
