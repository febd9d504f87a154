from dataclasses import dataclass
from typing import Any, Optional


@dataclass
class TrainerArguments:
    """The Trainer's arguments, typed (the trailing commas make the defaults tuples)."""

    _target_ = "pytorch_lightning.Trainer"
    # TODO(migrate-trainer): TrainerArguments.num_processes mirrors Trainer(num_processes=), which Lightning 2.6.6 no longer takes: where the field reaches the Trainer (Trainer(**...) raises a TypeError; a config filtered through the Trainer's signature loses it without a word), replace it by accelerator and devices, with the configs that set it [schema_fields]
    num_processes: int = (1,)
    devices: Any = None
    # TODO(migrate-trainer): TrainerArguments.gpus mirrors Trainer(gpus=), which Lightning 2.6.6 no longer takes: where the field reaches the Trainer (Trainer(**...) raises a TypeError; a config filtered through the Trainer's signature loses it without a word), replace it by accelerator and devices, with the configs that set it [schema_fields]
    gpus: Any = None
    # TODO(migrate-trainer): TrainerArguments.tpu_cores mirrors Trainer(tpu_cores=), which Lightning 2.6.6 no longer takes: where the field reaches the Trainer (Trainer(**...) raises a TypeError; a config filtered through the Trainer's signature loses it without a word), replace it by accelerator and devices, with the configs that set it [schema_fields]
    tpu_cores: Any = None
    # TODO(migrate-trainer): TrainerArguments.ipus mirrors Trainer(ipus=), which Lightning 2.6.6 no longer takes: where the field reaches the Trainer (Trainer(**...) raises a TypeError; a config filtered through the Trainer's signature loses it without a word), replace it by accelerator and devices, with the configs that set it [schema_fields]
    ipus: Optional[int] = (None,)
    accelerator: Any = None
    strategy: Any = None
    sync_batchnorm: bool = (False,)
    max_epochs: Optional[int] = (None,)
    # TODO(migrate-trainer): TrainerArguments.replace_sampler_ddp mirrors Trainer(replace_sampler_ddp=), which Lightning 2.6.6 no longer takes: where the field reaches the Trainer (Trainer(**...) raises a TypeError; a config filtered through the Trainer's signature loses it without a word), replace it by use_distributed_sampler, with the configs that set it [schema_fields]
    replace_sampler_ddp: bool = (True,)
    plugins: Any = None
