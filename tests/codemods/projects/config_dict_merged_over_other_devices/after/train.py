import hydra
import pytorch_lightning as pl


@hydra.main(config_path="conf", config_name="config")
def main(cfg):
    trainer = pl.Trainer(**cfg.trainer)
    return trainer


if __name__ == "__main__":
    main()
