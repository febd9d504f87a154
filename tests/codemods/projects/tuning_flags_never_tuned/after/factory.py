"""Nothing in this project tunes its Trainer: 1.5 never read the tuning flags here."""
import pytorch_lightning as pl


def build(cfg, logger):
    return pl.Trainer(
        max_epochs=cfg.trainer.max_epochs,
        logger=logger,
    )


def build_tpu(cfg):
    # auto_select_gpus only ever picked GPUs for gpus=N
    return pl.Trainer(accelerator="tpu", devices=8)


def build_with_call(cfg):
    # the value is a call: dropping it would drop the call too
    # TODO(migrate-trainer): auto_lr_find=pick_attribute(cfg) (gone in 2.0): run Tuner(trainer).lr_find(model) (pytorch_lightning.tuner) [removed_arguments]
    return pl.Trainer(auto_lr_find=pick_attribute(cfg))
