import pytorch_lightning as pl
import torch


class Classifier(pl.LightningModule):
    def __init__(self, net: torch.nn.Module, lr: float = 0.01):
        super().__init__()
        # TODO(migrate-trainer): the hyperparameters saved here hold net (an nn.Module, pickled into every checkpoint): Lightning 2.0.9 loads checkpoints with torch's weights_only default (True since torch 2.6), so trainer.test(ckpt_path=...)/load_from_checkpoint refuse it: save_hyperparameters(ignore=['net']) and pass it again when loading, or pass weights_only=False for checkpoints you trust [hparams_modules]
        self.save_hyperparameters(logger=False)
        self.net = net
