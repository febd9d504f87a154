import pytorch_lightning as pl


def send_settings(trainer: pl.Trainer, settings) -> None:
    # every logger gets the run's settings
    trainer.logger.log_hyperparams(settings)
    if trainer.logger: trainer.logger.log_metrics({"ready": 1.0})
    trainer.logger.log_metrics(settings.copy(), step=len(settings))


def close_all(trainer, logger):
    trainer.logger.finalize("success")


class Classifier(pl.LightningModule):
    def on_fit_start(self):
        self.logger.log_hyperparams({"width": 64})
        print(self.logger.version)
