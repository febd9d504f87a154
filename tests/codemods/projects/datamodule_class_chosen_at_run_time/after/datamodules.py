import pytorch_lightning as pl


class VisionDataModule(pl.LightningDataModule):
    pass


class CIFAR10DataModule(VisionDataModule):
    pass


class STL10DataModule(VisionDataModule):
    pass
