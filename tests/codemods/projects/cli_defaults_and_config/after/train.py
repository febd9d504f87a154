from pytorch_lightning.strategies import DDPStrategy
# TODO(migrate-trainer): Lightning 2.0.9 has no pytorch_lightning.utilities.cli.LightningCLI (the name is at pytorch_lightning.cli.LightningCLI) [removed_names]
from pytorch_lightning.utilities.cli import LightningCLI

from model import Model

cli = LightningCLI(Model, trainer_defaults={"strategy": DDPStrategy(find_unused_parameters=True)})
