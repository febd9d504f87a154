"""training_epoch_end under manual optimization, and epoch-end hooks that never read their outputs (renamed only)."""

import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, TensorDataset


class Manual(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.automatic_optimization = False
        self.layer = torch.nn.Linear(4, 1)
        self.seen = 0

    def training_step(self, batch, batch_idx):
        (x,) = batch
        optimizer = self.optimizers()
        loss = self.layer(x).pow(2).mean()
        optimizer.zero_grad()
        self.manual_backward(loss)
        optimizer.step()
        self.seen += 1
        if batch_idx % 2:
            return {"loss": loss, "twice": loss * 2}
        return loss

    def training_epoch_end(self, outputs):
        print("OUT manual", [sorted(o) for o in outputs], [o["loss"].requires_grad for o in outputs])
        print("OUT twice", [o["twice"].requires_grad for o in outputs if "twice" in o])

    def validation_step(self, batch, batch_idx):
        (x,) = batch
        return self.layer(x).sum()

    def validation_epoch_end(self, outputs) -> None:
        print("OUT seen", self.current_epoch, self.seen)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


def loader():
    generator = torch.Generator().manual_seed(0)
    return DataLoader(TensorDataset(torch.randn(16, 4, generator=generator)), batch_size=4)


if __name__ == "__main__":
    pl.seed_everything(1)
    trainer = pl.Trainer(
        max_epochs=2, logger=False, checkpoint_callback=False, progress_bar_refresh_rate=0, weights_summary=None
    )
    trainer.fit(Manual(), loader(), loader())
