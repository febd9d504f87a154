import hydra
import pytorch_lightning as pl
from pytorch_lightning.strategies import DDPStrategy


@hydra.main(config_path="conf", config_name="vocoder")
def main(cfg):
    return pl.Trainer(strategy=DDPStrategy(find_unused_parameters=True), **cfg.trainer)


if __name__ == "__main__":
    main()
