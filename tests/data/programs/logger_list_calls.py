"""trainer.logger / self.logger calls with a list of loggers (several, one, none): 1.5's LoggerCollection called each."""

import pytorch_lightning as pl
import torch
from pytorch_lightning.loggers import LightningLoggerBase
from torch.utils.data import DataLoader, TensorDataset


class Printing(LightningLoggerBase):
    def __init__(self, tag):
        super().__init__()
        self.tag = tag

    @property
    def experiment(self):
        return None

    @property
    def name(self):
        return self.tag

    @property
    def version(self):
        return 0

    def log_hyperparams(self, params, *args, **kwargs):
        if isinstance(params, dict) and "marker" in params:
            print("OUT hparams", self.tag, params["marker"])

    def log_metrics(self, metrics, step=None):
        pass


class Tiny(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.layer = torch.nn.Linear(4, 1)

    def on_fit_start(self):
        self.logger.log_hyperparams({"marker": "fit start"})

    def training_step(self, batch, batch_idx):
        (x,) = batch
        return self.layer(x).pow(2).mean()

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


def loader():
    generator = torch.Generator().manual_seed(0)
    return DataLoader(TensorDataset(torch.randn(8, 4, generator=generator)), batch_size=4)


def run(loggers):
    trainer = pl.Trainer(
        max_epochs=1, logger=loggers, checkpoint_callback=False, progress_bar_refresh_rate=0, weights_summary=None
    )
    trainer.fit(Tiny(), loader())
    trainer.logger.log_hyperparams({"marker": f"after fit of {len(loggers)}"})


if __name__ == "__main__":
    pl.seed_everything(1)
    run([Printing("a"), Printing("b")])
    run([Printing("only")])
    run([])
