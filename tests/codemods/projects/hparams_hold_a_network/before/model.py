import pytorch_lightning as pl
import torch


class Classifier(pl.LightningModule):
    def __init__(self, net: torch.nn.Module, lr: float = 0.01):
        super().__init__()
        self.save_hyperparameters(logger=False)
        self.net = net
