from omegaconf import OmegaConf
import pytorch_lightning as pl


def test_trains_on_cpu():
    cfg = OmegaConf.load("conf/config.yaml")
    cfg.trainer.accelerator = "cpu"
    cfg.trainer.devices = 1
    pl.Trainer(**cfg.trainer)
