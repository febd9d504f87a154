import pytorch_lightning as pl

from report import send_settings


def build(config, model):
    loggers = []
    for entry in config.loggers:
        loggers.append(entry)
    trainer = pl.Trainer(logger=loggers, max_epochs=1)
    send_settings(trainer, dict(config))
    trainer.fit(model)
