import hydra
import pytorch_lightning as pl


@hydra.main(config_path="conf", config_name="config")
def main(cfg):
    scaler_wanted = cfg.trainer.precision == 16
    if cfg.trainer.devices > 1:
        print("several cards")
    return pl.Trainer(**cfg.trainer), scaler_wanted


if __name__ == "__main__":
    main()
