"""train.py tunes the Trainer: the tuning flags did something in 1.5."""
import pytorch_lightning as pl


def build(cfg, logger):
    return pl.Trainer(
        max_epochs=cfg.trainer.max_epochs,
        auto_scale_batch_size=cfg.trainer.auto_scale_batch_size,
        # TODO(migrate-trainer): auto_lr_find=True (gone in 2.0): run Tuner(trainer).lr_find(model) (pytorch_lightning.tuner); auto_scale_batch_size=cfg.trainer.auto_scale_batch_size (gone in 2.0): run Tuner(trainer).scale_batch_size(model) (pytorch_lightning.tuner) [removed_arguments]
        auto_lr_find=True,
        logger=logger,
    )


def build_tpu(cfg):
    # auto_select_gpus only ever picked GPUs for gpus=N
    return pl.Trainer(accelerator="tpu", devices=8)


def build_with_call(cfg):
    # the value is a call: dropping it would drop the call too
    # TODO(migrate-trainer): auto_lr_find=pick_attribute(cfg) (gone in 2.0): run Tuner(trainer).lr_find(model) (pytorch_lightning.tuner) [removed_arguments]
    return pl.Trainer(auto_lr_find=pick_attribute(cfg))
