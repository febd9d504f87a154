from dataclasses import dataclass
from typing import Any, Optional


@dataclass
class TrainerConf:
    _target_: str = "pytorch_lightning.Trainer"
    max_epochs: int = 1000
    gpus: Any = None  # int, str or a list of indices
    accelerator: Any = None
    precision: int = 32
    devices: Any = None
    strategy: Optional[str] = None


@dataclass
class SpeechTrainerConf(TrainerConf):
    callbacks: Any = None


@dataclass
class SpeechConfig:
    trainer: SpeechTrainerConf = SpeechTrainerConf()
    seed: int = 7
