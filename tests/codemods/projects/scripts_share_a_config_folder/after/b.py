import hydra
import pytorch_lightning as pl


@hydra.main(config_path="conf", config_name="b")
def main(cfg):
    return pl.Trainer(**cfg.trainer)
