"""What 1.x passed to training_epoch_end/validation_epoch_end/test_epoch_end: steps that return a dict with a
tensor that has a graph, a bare loss, None; the sanity check; two epochs; a test run. Prints one line per hook."""

import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, TensorDataset


def describe(x):
    if isinstance(x, dict):
        return "{" + ", ".join(f"{k}: {describe(v)}" for k, v in sorted(x.items())) + "}"
    if isinstance(x, list):
        return "[" + ", ".join(describe(v) for v in x) + "]"
    if isinstance(x, torch.Tensor):
        return f"T({x.item():.4f}, grad={x.requires_grad})"
    return repr(x)


class Model(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.layer = torch.nn.Linear(4, 1)

    def training_step(self, batch, batch_idx):
        (x,) = batch
        loss = self.layer(x).pow(2).mean()
        if batch_idx == 1:
            return None
        if batch_idx == 2:
            return loss
        return {"loss": loss, "extra": loss * 2, "n": batch_idx}

    def training_epoch_end(self, outputs):
        print("OUT train", self.current_epoch, describe(outputs))

    def validation_step(self, batch, batch_idx):
        (x,) = batch
        if batch_idx == 0:
            return None
        return {"v": self.layer(x).sum()}

    def validation_epoch_end(self, outputs):
        super().validation_epoch_end(outputs)  # LightningModule's own: nothing
        print("OUT validation", self.current_epoch, describe(outputs))

    def test_step(self, batch, batch_idx):
        (x,) = batch
        return self.layer(x).sum()

    def test_epoch_end(self, outs):
        """Uses another name for the outputs."""
        print("OUT test", describe(outs))

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


class Accumulating(Model):
    """A subclass that only overrides the step: the collector is inherited, the loss is normalized as in 1.x."""

    def training_step(self, batch, batch_idx):
        (x,) = batch
        return self.layer(x).abs().mean()


def loader():
    generator = torch.Generator().manual_seed(0)
    return DataLoader(TensorDataset(torch.randn(16, 4, generator=generator)), batch_size=4)


if __name__ == "__main__":
    for model, accumulate in ((Model(), 1), (Accumulating(), 2)):
        pl.seed_everything(1)
        model.load_state_dict({k: torch.full_like(v, 0.1) for k, v in model.state_dict().items()})
        trainer = pl.Trainer(
            max_epochs=2,
            logger=False,
            checkpoint_callback=False,
            progress_bar_refresh_rate=0,
            weights_summary=None,
            num_sanity_val_steps=2,
            accumulate_grad_batches=accumulate,
        )
        trainer.fit(model, loader(), loader())
        trainer.test(model, loader(), verbose=False)
