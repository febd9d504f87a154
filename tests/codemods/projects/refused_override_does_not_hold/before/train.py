import hydra
import pytorch_lightning as pl


@hydra.main(config_path="configs", config_name="config")
def main(cfg):
    trainer = hydra.utils.instantiate(cfg.trainer)
    trainer.fit(pl.LightningModule())
