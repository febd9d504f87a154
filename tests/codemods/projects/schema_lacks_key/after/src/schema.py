from dataclasses import dataclass

from hydra.core.config_store import ConfigStore

GPUS = 0


@dataclass
class TrainerConf:
    # TODO(migrate-trainer): TrainerConf.gpus mirrors Trainer(gpus=), which Lightning 2.0.9 no longer takes: where the field reaches the Trainer (Trainer(**...) raises a TypeError; a config filtered through the Trainer's signature loses it without a word), replace it by accelerator and devices, with the configs that set it [schema_fields]
    gpus: int = GPUS
    precision: int = 32
    max_epochs: int = 10


ConfigStore.instance().store(group="trainer", name="base", node=TrainerConf)
