"""Fit the model.

    python run.py trainer.gpus=4 trainer.max_epochs=1
"""
import hydra
import pytorch_lightning as pl


@hydra.main(config_path="conf", config_name="config")
def main(cfg):
    workers = 4 * cfg.trainer.gpus
    trainer = pl.Trainer(**cfg.trainer)
    return trainer, workers
