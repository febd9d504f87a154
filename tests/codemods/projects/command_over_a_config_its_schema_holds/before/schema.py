from dataclasses import dataclass
from typing import Any, Optional


@dataclass
class TrainerArguments:
    """The Trainer's arguments, typed (the trailing commas make the defaults tuples)."""

    _target_ = "pytorch_lightning.Trainer"
    num_processes: int = (1,)
    devices: Any = None
    gpus: Any = None
    tpu_cores: Any = None
    ipus: Optional[int] = (None,)
    accelerator: Any = None
    strategy: Any = None
    sync_batchnorm: bool = (False,)
    max_epochs: Optional[int] = (None,)
    replace_sampler_ddp: bool = (True,)
    plugins: Any = None
