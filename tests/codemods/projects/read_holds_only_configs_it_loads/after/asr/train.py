import hydra
import pytorch_lightning as pl


@hydra.main(config_path="conf", config_name="config")
def main(cfg):
    gpu = cfg.trainer.get("gpus")  # a value that goes on: None where a config has no gpus
    return pl.Trainer(**cfg.trainer), gpu
