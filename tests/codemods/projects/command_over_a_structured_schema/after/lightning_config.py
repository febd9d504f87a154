from dataclasses import dataclass
from typing import Any, Optional


@dataclass
class TrainerConf:
    max_epochs: int = 1000
    num_nodes: int = 1
    accelerator: Any = "cpu"
    devices: Any = "auto"
    precision: int = 32
    strategy: str = "auto"
