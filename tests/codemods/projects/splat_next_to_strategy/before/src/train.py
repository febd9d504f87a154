from omegaconf import OmegaConf
from pytorch_lightning import Trainer
from pytorch_lightning.plugins import DDPPlugin


class QuietDDP(DDPPlugin):
    pass


def run(path):
    cfg = OmegaConf.load(path)
    return Trainer(plugins=[QuietDDP()], **cfg.trainer)
