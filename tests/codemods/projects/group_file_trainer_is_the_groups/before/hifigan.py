import hydra
import pytorch_lightning as pl


@hydra.main(config_path="conf/hifigan", config_name="hifigan")
def main(cfg):
    return pl.Trainer(**cfg.trainer)


if __name__ == "__main__":
    main()
