"""A data module that sets self.dims (LightningDataModule.size() and the dims property, deprecated in 1.5 and gone
in 1.7): the model is built from dm.size() and dm.size(0). Then data modules whose dims come from a base class (a
class attribute, as bolts' CIFAR10DataModule has, or the base's __init__ reached through super().__init__), picked
through a variable as bolts' scripts do. Prints what they gave."""

import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, TensorDataset


class Squares(pl.LightningDataModule):
    def __init__(self):
        super().__init__()
        self.dims = (1, 4, 4)

    def train_dataloader(self):
        return DataLoader(TensorDataset(torch.randn(8, *self.dims)), batch_size=4)


class Shaped(pl.LightningDataModule):
    dims = (3, 2, 2)


class Narrow(Shaped):
    def __init__(self, width=2):
        super().__init__()
        self.width = width


class Built(pl.LightningDataModule):
    def __init__(self):
        super().__init__()
        self.dims = (2, 3, 3)


class Derived(Built):
    def __init__(self):
        super().__init__()


class Model(pl.LightningModule):
    def __init__(self, channels, width, height):
        super().__init__()
        self.layer = torch.nn.Linear(channels * width * height, 1)

    def training_step(self, batch, batch_idx):
        (x,) = batch
        return self.layer(x.flatten(1)).pow(2).mean()

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


dm = Squares()
print("OUT size", tuple(dm.size()), dm.size(0))
model = Model(*dm.size())
trainer = pl.Trainer(max_epochs=1, logger=False, enable_checkpointing=False, enable_progress_bar=False)
trainer.fit(model, dm.train_dataloader())  # (1.5.10 on Python 3.11 cannot call a data module's setup hooks)
print("OUT fitted", trainer.global_step)
for name in ("shaped", "narrow", "derived"):
    if name == "shaped":
        dm_cls = Shaped
    elif name == "narrow":
        dm_cls = Narrow
    else:
        dm_cls = Derived
    picked = dm_cls()
    print("OUT picked", name, tuple(picked.size()), picked.size()[-1], tuple(picked.dims))
