import hydra
import pytorch_lightning as pl


@hydra.main(config_path="conf", config_name="a")
def main(cfg):
    gpu = 1 if cfg.trainer.gpus != 0 else 0
    return pl.Trainer(**cfg.trainer), gpu
