import pytorch_lightning as pl
from omegaconf import OmegaConf

from schema import RunConfig


def main():
    cfg = OmegaConf.structured(RunConfig())
    cfg.trainer.accelerator = "gpu"
    cfg.trainer.devices = 1
    return pl.Trainer(**cfg.trainer)
