from dataclasses import dataclass
from typing import Any


@dataclass
class TrainerConfig:
    _target_ = "pytorch_lightning.trainer.Trainer"
    strategy: Any = None
    precision: Any = None
