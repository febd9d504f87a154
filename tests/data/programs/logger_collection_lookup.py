"""Finding one logger among trainer.logger's (several, one in a list, one, none): 1.5's LoggerCollection idiom."""

import pytorch_lightning as pl
import torch
from pytorch_lightning.loggers import CSVLogger, LightningLoggerBase, LoggerCollection
from torch.utils.data import DataLoader, TensorDataset


class Quiet(LightningLoggerBase):
    @property
    def experiment(self):
        return None

    @property
    def name(self):
        return "quiet"

    @property
    def version(self):
        return 0

    def log_hyperparams(self, params, *args, **kwargs):
        pass

    def log_metrics(self, metrics, step=None):
        pass


def csv_of(trainer):
    if isinstance(trainer.logger, CSVLogger):
        return trainer.logger
    if isinstance(trainer.logger, LoggerCollection):
        for logger in trainer.logger:
            if isinstance(logger, CSVLogger):
                return logger
    return None


class Tiny(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.layer = torch.nn.Linear(4, 1)

    def on_fit_start(self):
        found = self.logger
        if isinstance(self.logger, LoggerCollection):
            for logger in self.logger:
                if isinstance(logger, CSVLogger):
                    found = logger
                    break
        print("OUT module finds", isinstance(found, CSVLogger) and found.name)

    def training_step(self, batch, batch_idx):
        (x,) = batch
        return self.layer(x).pow(2).mean()

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


def loader():
    generator = torch.Generator().manual_seed(0)
    return DataLoader(TensorDataset(torch.randn(8, 4, generator=generator)), batch_size=4)


def run(label, loggers):
    trainer = pl.Trainer(
        max_epochs=1, logger=loggers, checkpoint_callback=False, progress_bar_refresh_rate=0, weights_summary=None
    )
    trainer.fit(Tiny(), loader())
    found = csv_of(trainer)
    print("OUT", label, "finds", found.name if found is not None else None)


if __name__ == "__main__":
    pl.seed_everything(1)
    run("another and csv", [Quiet(), CSVLogger("logs", name="csv")])
    run("csv and another", [CSVLogger("logs", name="first"), Quiet()])
    run("a list of one", [CSVLogger("logs", name="only")])
    run("a list of another", [Quiet()])
    run("one", CSVLogger("logs", name="single"))
    run("another", Quiet())
    run("none", [])
