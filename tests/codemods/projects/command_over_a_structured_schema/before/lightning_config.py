from dataclasses import dataclass
from typing import Any, Optional


@dataclass
class TrainerConf:
    max_epochs: int = 1000
    gpus: Any = None
    num_nodes: int = 1
    accelerator: Any = None
    devices: Any = None
    precision: int = 32
