import hydra


def train(cfg):
    distributed = (cfg.trainer.devices if cfg.trainer.accelerator == "gpu" else 0) > 1
    trainer = hydra.utils.instantiate(cfg.trainer)
    return trainer, distributed
