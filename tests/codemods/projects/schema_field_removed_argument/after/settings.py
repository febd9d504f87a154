import inspect
from dataclasses import asdict, dataclass

import pytorch_lightning as pl


@dataclass
class TrainerSettings:
    accelerator: str = "cpu"
    devices: int = 1
    max_epochs: int = 10
    # TODO(migrate-trainer): TrainerSettings.auto_select_gpus mirrors Trainer(auto_select_gpus=), which Lightning 2.0.9 no longer takes: where the field reaches the Trainer (Trainer(**...) raises a TypeError; a config filtered through the Trainer's signature loses it without a word), replace it by devices (a list of free GPUs you pick, e.g. with lightning's find_usable_cuda_devices), with the configs that set it [schema_fields]
    auto_select_gpus: bool = False
    # TODO(migrate-trainer): TrainerSettings.track_grad_norm mirrors Trainer(track_grad_norm=), which Lightning 2.0.9 no longer takes: where the field reaches the Trainer (Trainer(**...) raises a TypeError; a config filtered through the Trainer's signature loses it without a word), replace it by log pytorch_lightning.utilities.grad_norm(...) in on_before_optimizer_step, with the configs that set it [schema_fields]
    track_grad_norm: float = -1


def build(settings: TrainerSettings) -> pl.Trainer:
    accepted = inspect.signature(pl.Trainer.__init__).parameters
    return pl.Trainer(**{k: v for k, v in asdict(settings).items() if k in accepted})
