from omegaconf import OmegaConf
import pytorch_lightning as pl


def main():
    conf = OmegaConf.merge(OmegaConf.load("conf/defaults.yaml"), OmegaConf.from_cli())
    trainer = pl.Trainer(**conf.trainer)
    trainer.fit(None)


if __name__ == "__main__":
    main()
