# TODO(migrate-trainer): pytorch_lightning.loggers.LoggerCollection is gone in 1.8, so this import fails: LoggerCollection is gone in 1.8: pass the loggers as a list (logger=[a, b]); trainer.loggers lists them [logger_base]
from pytorch_lightning.loggers import LoggerCollection, TensorBoardLogger

from pkg.base import Generator


class Vocoder(Generator):
    def validation_step(self, batch, batch_idx):
        if self.logger is not None and self.logger.experiment is not None:
            tb_logger = self.logger.experiment
            if len(self.loggers) > 1:
                for logger in self.loggers:
                    if isinstance(logger, TensorBoardLogger):
                        tb_logger = logger.experiment
                        break
            tb_logger.add_text("batch", str(batch_idx))


class Plain:
    def plot(self):
        tb_logger = self.logger.experiment
        # TODO(migrate-trainer): LoggerCollection: LoggerCollection is gone in 1.8: pass the loggers as a list (logger=[a, b]); trainer.loggers lists them [logger_base]
        if isinstance(self.logger, LoggerCollection):
            for logger in self.logger:
                if isinstance(logger, TensorBoardLogger):
                    tb_logger = logger.experiment
                    break
        return tb_logger
