import hydra
import pytorch_lightning as pl


@hydra.main(config_path="conf", config_name="lm")
def main(cfg):
    return pl.Trainer(**cfg.trainer)


if __name__ == "__main__":
    main()
