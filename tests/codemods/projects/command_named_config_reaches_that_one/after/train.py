import hydra
import pytorch_lightning as pl


@hydra.main(config_path="conf", config_name="config")
def main(cfg):
    trainer = pl.Trainer(**cfg.trainer)
    trainer.fit(None)
