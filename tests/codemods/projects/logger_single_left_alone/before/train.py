import pytorch_lightning as pl
from pytorch_lightning.loggers import TensorBoardLogger


def build(model):
    trainer = pl.Trainer(logger=TensorBoardLogger("logs"), max_epochs=1)
    trainer.logger.log_hyperparams({"width": 64})
    trainer.fit(model)
