from omegaconf import OmegaConf
import pytorch_lightning as pl


def test_one_gpu(tmp_path):
    config = OmegaConf.load(tmp_path / "config.yaml")
    config.trainer.gpus = 1  # one device is enough here
    config.trainer.precision = 32
    config.trainer.accelerator = None
    trainer = pl.Trainer(**config.trainer)
    assert trainer
