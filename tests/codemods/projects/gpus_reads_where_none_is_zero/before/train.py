import hydra
import pytorch_lightning as pl

from src.extras import debug_friendly


@hydra.main(config_path="configs", config_name="config")
def main(config):
    debug_friendly(config)
    if config.trainer.gpus > 1:
        print("data parallel")
    return pl.Trainer(**config.trainer)


if __name__ == "__main__":
    main()
