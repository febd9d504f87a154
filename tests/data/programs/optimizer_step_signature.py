"""An optimizer_step override written for 1.x: a learning-rate warm-up, then Lightning's own step (super) or the
optimizer's, each called with the closure. Prints the weights after every epoch."""

import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, TensorDataset


class WarmUp(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.layer = torch.nn.Linear(4, 1)

    def training_step(self, batch, batch_idx):
        (x,) = batch
        return self.layer(x).pow(2).mean()

    def optimizer_step(
        self,
        epoch,
        batch_idx,
        optimizer,
        optimizer_idx,
        optimizer_closure,
        on_tpu=False,
        using_native_amp=False,
        using_lbfgs=False,
    ):
        for group in optimizer.param_groups:
            group["lr"] = 0.1 * min(1.0, (self.trainer.global_step + 1) / 3)
        super().optimizer_step(
            epoch, batch_idx, optimizer, optimizer_idx, optimizer_closure, on_tpu, using_native_amp, using_lbfgs
        )

    def training_epoch_end(self, outputs):
        print("OUT weights", self.current_epoch, [round(w, 4) for w in self.layer.weight.flatten().tolist()])

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


class Direct(WarmUp):
    def optimizer_step(self, epoch, batch_idx, optimizer, optimizer_idx, closure, on_tpu, using_native_amp, using_lbfgs):
        optimizer.step(closure=closure)


def loader():
    generator = torch.Generator().manual_seed(0)
    return DataLoader(TensorDataset(torch.randn(16, 4, generator=generator)), batch_size=4)


if __name__ == "__main__":
    for model in (WarmUp(), Direct()):
        model.load_state_dict({k: torch.full_like(v, 0.1) for k, v in model.state_dict().items()})
        trainer = pl.Trainer(
            max_epochs=2, logger=False, checkpoint_callback=False, progress_bar_refresh_rate=0, weights_summary=None
        )
        trainer.fit(model, loader())
