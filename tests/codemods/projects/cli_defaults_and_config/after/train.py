from pytorch_lightning.strategies import DDPStrategy
from pytorch_lightning.cli import LightningCLI

from model import Model

cli = LightningCLI(Model, trainer_defaults={"strategy": DDPStrategy(find_unused_parameters=True)})
