import pytorch_lightning as pl


def build(cfg, n):
    trainer = pl.Trainer(gpus=n(), max_epochs=cfg.trainer.max_epochs)
    half = cfg.trainer.max_steps is None
    return trainer, half
