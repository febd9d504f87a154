import hydra
import pytorch_lightning as pl


@hydra.main(config_path="conf", config_name="config")
def main(cfg):
    return pl.Trainer(num_nodes=2, plugins=[], accelerator=cfg.get("backend"), **cfg.trainer)
