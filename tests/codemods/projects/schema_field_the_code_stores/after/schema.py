from dataclasses import dataclass
from typing import Any, Optional


@dataclass
class TrainerConf:
    max_epochs: int = 10
    accelerator: str = "cpu"
    devices: int = 1
    strategy: str = "auto"
    # TODO(migrate-trainer): TrainerConf.resume_from_checkpoint mirrors Trainer(resume_from_checkpoint=), which Lightning 2.0.9 no longer takes: where the field reaches the Trainer (Trainer(**...) raises a TypeError; a config filtered through the Trainer's signature loses it without a word), replace it by pass ckpt_path= to trainer.fit() instead, with the configs that set it [schema_fields]
    resume_from_checkpoint: Optional[str] = None  # set by train.py


def resume(cfg, path):
    cfg.trainer.resume_from_checkpoint = path
