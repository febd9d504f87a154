from dataclasses import dataclass

from hydra.core.config_store import ConfigStore
from typing import Any


@dataclass
class TrainerConf:
    precision: Any = 32
    max_epochs: int = 10
    accelerator: str = "cpu"
    devices: int = 1
    strategy: str = "auto"


ConfigStore.instance().store(group="trainer", name="base", node=TrainerConf)
