from dataclasses import dataclass

from hydra.core.config_store import ConfigStore

GPUS = 0


@dataclass
class TrainerConf:
    gpus: int = GPUS
    precision: int = 32
    max_epochs: int = 10


ConfigStore.instance().store(group="trainer", name="base", node=TrainerConf)
