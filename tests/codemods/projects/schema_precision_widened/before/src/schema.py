from dataclasses import dataclass

from hydra.core.config_store import ConfigStore


@dataclass
class TrainerConf:
    gpus: int = 0
    precision: int = 32
    max_epochs: int = 10


ConfigStore.instance().store(group="trainer", name="base", node=TrainerConf)
