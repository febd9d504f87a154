from dataclasses import dataclass
from typing import Any, Optional


@dataclass
class TrainerConf:
    gpus: Any = None
    max_epochs: int = 10
    resume_from_checkpoint: Optional[str] = None  # set by train.py
    flush_logs_every_n_steps: int = 100


def resume(cfg, path):
    cfg.trainer.resume_from_checkpoint = path
