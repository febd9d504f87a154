import inspect
from dataclasses import asdict, dataclass

import pytorch_lightning as pl


@dataclass
class TrainerSettings:
    accelerator: str = "cpu"
    devices: int = 1
    max_epochs: int = 10
    strategy: str = "auto"


def build(settings: TrainerSettings) -> pl.Trainer:
    accepted = inspect.signature(pl.Trainer.__init__).parameters
    return pl.Trainer(**{k: v for k, v in asdict(settings).items() if k in accepted})
