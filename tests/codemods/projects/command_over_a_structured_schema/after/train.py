import hydra
import pytorch_lightning as pl
from hydra.core.config_store import ConfigStore

from train_config import SpeechConfig

cs = ConfigStore.instance()
cs.store(name="config", node=SpeechConfig)


@hydra.main(config_path=".", config_name="config")
def main(cfg: SpeechConfig):
    distributed = (cfg.trainer.get("gpus") or 0) > 1
    return pl.Trainer(**cfg.trainer), distributed


if __name__ == "__main__":
    main()
