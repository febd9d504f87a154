from dataclasses import dataclass, field
from typing import Any, Optional


@dataclass
class TrainerConfig:
    accelerator: Optional[str] = "cpu"
    devices: int = 1
    max_epochs: int = 1000
    max_steps: Optional[int] = -1
    enable_checkpointing: bool = True
    use_distributed_sampler: bool = True
    strategy: str = "auto"


@dataclass
class RunConfig:
    trainer: TrainerConfig = field(default_factory=lambda: TrainerConfig(accelerator="gpu", devices=2, strategy="ddp"))


@dataclass
class EvalConfig:
    # a default the YAML configs are merged over: their devices decide what ddp does
    trainer: TrainerConfig = field(default_factory=lambda: TrainerConfig(strategy="ddp"))
