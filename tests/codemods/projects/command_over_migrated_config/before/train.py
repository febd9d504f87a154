"""
python train.py trainer.gpus=0 trainer.accelerator=null trainer.max_epochs=1
python train.py trainer.gpus=[1] trainer.accelerator=ddp
python train.py trainer.accelerator=null
python train.py trainer.accelerator=ddp_spawn trainer.amp_level=O2
"""
import hydra
import pytorch_lightning as pl

@hydra.main(config_path="conf", config_name="a")
def main(cfg):
    trainer = pl.Trainer(**cfg.trainer)
