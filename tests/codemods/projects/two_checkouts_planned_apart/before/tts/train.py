import hydra
from pytorch_lightning import Trainer


@hydra.main(config_path="conf", config_name="config")
def main(cfg):
    Trainer(**cfg.trainer).fit(build(cfg))
