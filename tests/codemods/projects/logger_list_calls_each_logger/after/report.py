import pytorch_lightning as pl


def send_settings(trainer: pl.Trainer, settings) -> None:
    # every logger gets the run's settings
    for each_logger in trainer.loggers:
        each_logger.log_hyperparams(settings)
    # TODO(migrate-trainer): trainer.logger.log_metrics: this project passes the Trainer a list of loggers; 1.5 called each of them, the target's trainer.logger is only the first (None for an empty list): call it on each of trainer.loggers [trainer_loggers]
    if trainer.logger: trainer.logger.log_metrics({"ready": 1.0})
    # TODO(migrate-trainer): trainer.logger.log_metrics: this project passes the Trainer a list of loggers; 1.5 called each of them, the target's trainer.logger is only the first (None for an empty list): call it on each of trainer.loggers [trainer_loggers]
    trainer.logger.log_metrics(settings.copy(), step=len(settings))


def close_all(trainer, logger):
    for each_logger in trainer.loggers:
        each_logger.finalize("success")


class Classifier(pl.LightningModule):
    def on_fit_start(self):
        for logger in self.loggers:
            logger.log_hyperparams({"width": 64})
        print(self.logger.version)
