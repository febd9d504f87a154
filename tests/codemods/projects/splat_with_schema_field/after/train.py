from dataclasses import asdict

import pytorch_lightning as pl

from conf import TrainerConfig


def main(cfg: TrainerConfig):
    # TODO(migrate-trainer): strategy= would be passed twice: the rewrite adds it next to the ** mapping, which may hold TrainerConfig's strategy field (conf.py); migrate the flags of this call and that mapping together [accelerator_strategy]
    return pl.Trainer(accelerator="ddp", **asdict(cfg))


def other(cfg):
    return pl.Trainer(max_epochs=1, **cfg)
