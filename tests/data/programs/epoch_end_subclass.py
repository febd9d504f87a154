"""A LightningModule built on the project's own base class, which takes no part in the validation loop: the
subclass's validation_epoch_end gets every step's output, and its training_epoch_end reads none. Prints one line
per hook."""

import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, TensorDataset


class Base(pl.LightningModule):
    """Shared layer, training step and optimiser."""

    def __init__(self):
        super().__init__()
        self.layer = torch.nn.Linear(4, 1)

    def training_step(self, batch, batch_idx):
        (x,) = batch
        return self.layer(x).pow(2).mean()

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


class Model(Base):
    def __init__(self):
        super().__init__()
        self.epochs_seen = 0

    def training_epoch_end(self, outputs):
        self.epochs_seen += 1
        print("OUT train epochs", self.epochs_seen)

    def validation_step(self, batch, batch_idx):
        (x,) = batch
        if batch_idx == 0:
            return None
        return {"v": self.layer(x).sum()}

    def validation_epoch_end(self, outputs):
        print("OUT validation", self.current_epoch, len(outputs), [f"{o['v'].item():.4f}" for o in outputs])


def loader():
    generator = torch.Generator().manual_seed(0)
    return DataLoader(TensorDataset(torch.randn(16, 4, generator=generator)), batch_size=4)


if __name__ == "__main__":
    pl.seed_everything(1)
    model = Model()
    model.load_state_dict({k: torch.full_like(v, 0.1) for k, v in model.state_dict().items()})
    trainer = pl.Trainer(
        max_epochs=2,
        logger=False,
        checkpoint_callback=False,
        progress_bar_refresh_rate=0,
        weights_summary=None,
        num_sanity_val_steps=2,
    )
    trainer.fit(model, loader(), loader())
