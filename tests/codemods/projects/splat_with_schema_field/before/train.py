from dataclasses import asdict

import pytorch_lightning as pl

from conf import TrainerConfig


def main(cfg: TrainerConfig):
    return pl.Trainer(accelerator="ddp", **asdict(cfg))


def other(cfg):
    return pl.Trainer(max_epochs=1, **cfg)
