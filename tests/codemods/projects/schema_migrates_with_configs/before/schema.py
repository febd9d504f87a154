from dataclasses import dataclass, field
from typing import Any, Optional


@dataclass
class TrainerConfig:
    gpus: Optional[Any] = None
    num_processes: int = 1
    accelerator: Optional[str] = None
    max_epochs: int = 1000
    max_steps: Optional[int] = None
    checkpoint_callback: bool = True
    weights_summary: Optional[str] = "top"
    replace_sampler_ddp: bool = True


@dataclass
class RunConfig:
    trainer: TrainerConfig = field(default_factory=lambda: TrainerConfig(gpus=2, accelerator="ddp"))


@dataclass
class EvalConfig:
    # a default the YAML configs are merged over: their devices decide what ddp does
    trainer: TrainerConfig = field(default_factory=lambda: TrainerConfig(accelerator="ddp"))
