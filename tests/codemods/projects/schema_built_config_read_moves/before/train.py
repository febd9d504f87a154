import hydra
from hydra.core.config_store import ConfigStore

from speech.configs.trainer_conf import SpeechConfig
from speech.training import train

ConfigStore.instance().store(name="config", node=SpeechConfig)


@hydra.main(config_path=".", config_name="config")
def main(cfg):
    train(cfg)


if __name__ == "__main__":
    main()
