"""Fit the model.

    python run.py trainer.accelerator=gpu trainer.devices=4 trainer.max_epochs=1
"""
import hydra
import pytorch_lightning as pl


@hydra.main(config_path="conf", config_name="config")
def main(cfg):
    workers = 4 * (cfg.trainer.devices if cfg.trainer.accelerator == "gpu" else 0)
    trainer = pl.Trainer(**cfg.trainer)
    return trainer, workers
