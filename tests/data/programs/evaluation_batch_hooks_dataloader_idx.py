"""1.5's evaluation and prediction batch hooks that still require dataloader_idx (a module's and a callback's), with
one dataloader and with two: 1.5.10 passed the index always (0 with one); 2.x passes it only with several."""

import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, TensorDataset


class Seen(pl.Callback):
    def on_validation_batch_start(self, trainer, pl_module, batch, batch_idx, dataloader_idx):
        print("OUT callback validation start", batch_idx, dataloader_idx)

    def on_test_batch_end(self, trainer, pl_module, outputs, batch, batch_idx, dataloader_idx):
        print("OUT callback test end", batch_idx, dataloader_idx)

    def on_predict_batch_end(self, trainer, pl_module, outputs, batch, batch_idx, dataloader_idx):
        print("OUT callback predict end", batch_idx, dataloader_idx)


class Tiny(pl.LightningModule):
    def __init__(self, loaders):
        super().__init__()
        self.layer = torch.nn.Linear(4, 1)
        self.loaders = loaders

    def on_validation_batch_end(self, outputs, batch, batch_idx, dataloader_idx):
        print("OUT module validation end", batch_idx, dataloader_idx)

    def on_test_batch_start(self, batch, batch_idx, dataloader_idx):
        print("OUT module test start", batch_idx, dataloader_idx)

    def training_step(self, batch, batch_idx):
        (x,) = batch
        return self.layer(x).pow(2).mean()

    def validation_step(self, batch, batch_idx, *rest):
        return None

    def test_step(self, batch, batch_idx, *rest):
        return None

    def predict_step(self, batch, batch_idx, *rest):
        return 0

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)

    def _evaluation(self):
        return loader() if self.loaders == 1 else [loader() for _ in range(self.loaders)]

    def train_dataloader(self):
        return loader()

    def val_dataloader(self):
        return self._evaluation()

    def test_dataloader(self):
        return self._evaluation()

    def predict_dataloader(self):
        return self._evaluation()


def loader():
    generator = torch.Generator().manual_seed(0)
    return DataLoader(TensorDataset(torch.randn(4, 4, generator=generator)), batch_size=4)


if __name__ == "__main__":
    pl.seed_everything(1)
    for loaders in (1, 2):
        print("OUT loaders", loaders)
        trainer = pl.Trainer(
            max_epochs=1,
            logger=False,
            checkpoint_callback=False,
            progress_bar_refresh_rate=0,
            weights_summary=None,
            num_sanity_val_steps=0,
            callbacks=[Seen()],
        )
        model = Tiny(loaders)
        trainer.fit(model)
        trainer.test(model, verbose=False)
        trainer.predict(model)
