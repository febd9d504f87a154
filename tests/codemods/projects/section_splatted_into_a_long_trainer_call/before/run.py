import os

import yaml
from pytorch_lightning import Trainer
from pytorch_lightning.callbacks import LearningRateMonitor, ModelCheckpoint
from pytorch_lightning.loggers import TensorBoardLogger

with open("configs/vae.yaml") as file:
    config = yaml.safe_load(file)

logger = TensorBoardLogger(save_dir="logs")
# the splat comes after arguments that call things: the whole call is read, not its first lines
runner = Trainer(
    logger=logger,
    callbacks=[
        LearningRateMonitor(),
        ModelCheckpoint(
            save_top_k=2,
            dirpath=os.path.join(logger.log_dir, "checkpoints"),
            monitor="val_loss",
            save_last=True,
        ),
    ],
    **config["trainer_params"],
)
