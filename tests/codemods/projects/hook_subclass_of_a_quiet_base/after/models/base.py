import pytorch_lightning as pl
import torch


class Base(pl.LightningModule):
    """Shared optimiser set-up; takes no part in the validation loop's hooks."""

    def __init__(self, lr=0.1):
        super().__init__()
        self.lr = lr

    def training_step(self, batch, batch_idx):
        return self.loss(batch)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=self.lr)


class Collecting(Base):
    """Keeps its own validation outputs: a subclass's epoch-end hook must not be rewritten around it."""

    # TODO(migrate-trainer): Lightning 2.0.9 never calls LightningModule.validation_epoch_end (removed in 2.0): use on_validation_epoch_end(self), which gets no outputs: append what validation_step returns (detach the tensors you keep) to a list the module owns, read it there and clear it; not rewritten: the class has no __init__ calling super().__init__() to create the list in [removed_hooks]
    def validation_epoch_end(self, outputs):
        self.log("n", float(len(outputs)))
