import hydra
from pytorch_lightning import Trainer


# Hydra 0.11: config_path names the primary config file
@hydra.main(config_path="config/config.yaml", strict=False)
def main(cfg):
    if cfg.trainer.distributed_backend == "ddp":
        print("sync batch norm")
    trainer = Trainer(**cfg.trainer)
    return trainer


if __name__ == "__main__":
    main()
