import pytorch_lightning as pl
from omegaconf import OmegaConf

from schema import RunConfig


def main():
    cfg = OmegaConf.structured(RunConfig())
    cfg.trainer.gpus = 1
    return pl.Trainer(**cfg.trainer)
