import hydra
from pytorch_lightning import Trainer


@hydra.main(config_path="conf", config_name="config")
def main(cfg):
    if cfg["trainer"]["gpus"] > 1:
        print("several GPUs")
    Trainer(**cfg.trainer).fit(build(cfg))
