"""
python train.py trainer.devices=1 trainer.accelerator=cpu trainer.strategy=auto trainer.max_epochs=1
python train.py trainer.devices=[1] trainer.accelerator=gpu trainer.strategy=ddp
python train.py trainer.strategy=auto
python train.py trainer.strategy=ddp_spawn trainer.amp_level=O2
"""
import hydra
import pytorch_lightning as pl

@hydra.main(config_path="conf", config_name="a")
def main(cfg):
    trainer = pl.Trainer(**cfg.trainer)
