import pytorch_lightning as pl


class Shaped(pl.LightningDataModule):
    dims = (3, 32, 32)


class Built(pl.LightningDataModule):
    def __init__(self, side=28):
        super().__init__()
        self.dims = (1, side, side)


class Late(pl.LightningDataModule):
    def setup(self, stage=None):
        self.dims = (1, 8, 8)
