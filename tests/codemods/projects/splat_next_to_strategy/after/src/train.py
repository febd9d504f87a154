from omegaconf import OmegaConf
from pytorch_lightning import Trainer
from pytorch_lightning.strategies import DDPStrategy


class QuietDDP(DDPStrategy):
    pass


def run(path):
    cfg = OmegaConf.load(path)
    return Trainer(strategy=QuietDDP(), **cfg.trainer)
