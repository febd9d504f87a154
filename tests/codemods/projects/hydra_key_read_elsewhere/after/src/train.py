"""Training entry point; the batch size scales with the number of GPUs in the config."""
import hydra
import pytorch_lightning as pl


@hydra.main(config_path="../configs", config_name="config")
def main(cfg):
    batch_size = 32 * max(1, (cfg.trainer.devices if cfg.trainer.accelerator == "gpu" else 0))
    trainer = hydra.utils.instantiate(cfg.trainer)
    trainer.fit(build(batch_size))


def build(batch_size):
    return pl.LightningModule()
