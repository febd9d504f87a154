from pytorch_lightning.utilities.cli import LightningCLI

from model import Model

cli = LightningCLI(Model, trainer_defaults={"gpus": 1, "max_epochs": 5})
