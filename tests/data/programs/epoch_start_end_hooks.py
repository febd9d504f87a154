"""on_epoch_start/on_epoch_end of a LightningModule and of a Callback (removed in 2.0), among the hooks around them:
a fit with a sanity check and validation each epoch, then a validation and a test run. Prints every hook call, in
order, with the epoch."""

import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, TensorDataset

HOOKS = (
    "on_epoch_start",
    "on_epoch_end",
    "on_train_epoch_start",
    "on_train_epoch_end",
    "on_validation_epoch_start",
    "on_validation_epoch_end",
    "on_test_epoch_start",
    "on_test_epoch_end",
)


def epoch(model):
    # The epoch only while fitting: after fit, 2.x's current_epoch counts the finished epochs (1.5's the last).
    return f" epoch={model.current_epoch}" if model.trainer.state.fn == "fit" else ""


def tracing(prefix, name):
    def hook(self, *args):
        print(f"OUT {prefix}.{name}{epoch(args[-1] if args else self)}")

    return hook


class Model(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.layer = torch.nn.Linear(4, 1)

    def training_step(self, batch, batch_idx):
        (x,) = batch
        return self.layer(x).pow(2).mean()

    def training_epoch_end(self, outputs):
        print(f"OUT model.training_epoch_end{epoch(self)} {len(outputs)}")

    def validation_step(self, batch, batch_idx):
        (x,) = batch
        return self.layer(x).sum()

    def validation_epoch_end(self, outputs):
        print(f"OUT model.validation_epoch_end{epoch(self)} {len(outputs)}")

    def test_step(self, batch, batch_idx):
        (x,) = batch
        return self.layer(x).sum()

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


class Tracer(pl.Callback):
    pass


class OnlyEpochHooks(pl.Callback):
    """Defines nothing but the removed hooks."""

    def on_epoch_start(self, trainer, pl_module):
        print(f"OUT only.on_epoch_start training={trainer.training}")

    def on_epoch_end(self, trainer, pl_module):
        print(f"OUT only.on_epoch_end sanity={trainer.sanity_checking}")


for _name in HOOKS:
    setattr(Model, _name, tracing("model", _name))
    setattr(Tracer, _name, tracing("callback", _name))


def loader():
    generator = torch.Generator().manual_seed(0)
    return DataLoader(TensorDataset(torch.randn(8, 4, generator=generator)), batch_size=4)


if __name__ == "__main__":
    model = Model()
    model.load_state_dict({k: torch.full_like(v, 0.1) for k, v in model.state_dict().items()})
    trainer = pl.Trainer(
        max_epochs=2,
        logger=False,
        checkpoint_callback=False,
        progress_bar_refresh_rate=0,
        weights_summary=None,
        num_sanity_val_steps=1,
        callbacks=[Tracer(), OnlyEpochHooks()],
    )
    trainer.fit(model, loader(), loader())
    print("OUT validate")
    trainer.validate(model, loader(), verbose=False)
    print("OUT test")
    trainer.test(model, loader(), verbose=False)
    print("OUT weights", [round(w, 4) for w in model.layer.weight.flatten().tolist()])
