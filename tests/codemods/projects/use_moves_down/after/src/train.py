import pytorch_lightning as pl


def build(cfg, n):
    # TODO(migrate-trainer): gpus=n() is not a literal: pass accelerator= and devices= instead (e.g. accelerator="gpu", devices=n when n > 0, else accelerator="cpu"); 0 and None meant CPU [device_flags]
    trainer = pl.Trainer(gpus=n(), max_epochs=cfg.trainer.max_epochs)
    half = cfg.trainer.max_steps is None
    return trainer, half
