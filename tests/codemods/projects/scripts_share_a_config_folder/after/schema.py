from dataclasses import dataclass
from typing import Any


@dataclass
class TrainerConfig:
    max_epochs: int = 10
    strategy: Any = "auto"
    accelerator: str = "cpu"
    devices: int = 1
