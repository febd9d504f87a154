from dataclasses import dataclass
from typing import Any


@dataclass
class TrainerConfig:
    max_epochs: int = 10
    strategy: Any = None
    # TODO(migrate-trainer): TrainerConfig.gpus mirrors Trainer(gpus=), which Lightning 2.0.9 no longer takes: where the field reaches the Trainer (Trainer(**...) raises a TypeError; a config filtered through the Trainer's signature loses it without a word), replace it by accelerator and devices, with the configs that set it [schema_fields]
    gpus: Any = None
    precision: int = 32
