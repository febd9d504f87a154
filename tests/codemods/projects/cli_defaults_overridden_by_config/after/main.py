from pytorch_lightning.cli import LightningCLI

from model import Model

cli = LightningCLI(Model, trainer_defaults={"accelerator": "gpu", "devices": 1, "max_epochs": 5})
