from dataclasses import dataclass, field

from lightning_config import TrainerConf


@dataclass
class SpeechConfig:
    trainer: TrainerConf = field(default_factory=TrainerConf)
    batch_size: int = 8
