"""train.py tunes the Trainer: the tuning flags did something in 1.5."""
import pytorch_lightning as pl


def build(cfg, logger):
    return pl.Trainer(
        max_epochs=cfg.trainer.max_epochs,
        auto_scale_batch_size=cfg.trainer.auto_scale_batch_size,
        auto_lr_find=True,
        logger=logger,
    )


def build_tpu(cfg):
    # auto_select_gpus only ever picked GPUs for gpus=N
    return pl.Trainer(tpu_cores=8, auto_select_gpus=cfg.trainer.auto_select_gpus)


def build_with_call(cfg):
    # the value is a call: dropping it would drop the call too
    return pl.Trainer(auto_lr_find=pick_attribute(cfg))
