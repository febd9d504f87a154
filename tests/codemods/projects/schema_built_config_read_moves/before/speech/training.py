import hydra


def train(cfg):
    distributed = cfg.trainer.gpus > 1
    trainer = hydra.utils.instantiate(cfg.trainer)
    return trainer, distributed
