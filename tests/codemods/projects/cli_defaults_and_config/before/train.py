from pytorch_lightning.plugins import DDPPlugin
from pytorch_lightning.utilities.cli import LightningCLI

from model import Model

cli = LightningCLI(Model, trainer_defaults={"plugins": DDPPlugin(find_unused_parameters=True)})
