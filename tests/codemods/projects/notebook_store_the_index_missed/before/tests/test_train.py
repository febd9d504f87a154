from omegaconf import OmegaConf
import pytorch_lightning as pl


def test_trains_on_cpu():
    cfg = OmegaConf.load("conf/config.yaml")
    cfg.trainer.gpus = 0
    pl.Trainer(**cfg.trainer)
