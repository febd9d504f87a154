from dataclasses import dataclass
from typing import Any, Optional


@dataclass
class TrainerConf:
    max_epochs: int = 1000
    # TODO(migrate-trainer): TrainerConf.gpus mirrors Trainer(gpus=), which Lightning 2.0.9 no longer takes: where the field reaches the Trainer (Trainer(**...) raises a TypeError; a config filtered through the Trainer's signature loses it without a word), replace it by accelerator and devices, with the configs that set it [schema_fields]
    gpus: Any = None
    num_nodes: int = 1
    accelerator: Any = "cpu"
    devices: Any = "auto"
    precision: int = 32
    strategy: str = "auto"
