import pytorch_lightning as pl


class Parent(pl.LightningModule):
    """Rewritten in the same run: a subclass's TODO must read the same on the next run."""

    def __init__(self):
        super().__init__()
        self.validation_step_outputs = []

    def validation_step(self, batch, batch_idx):
        return batch

    def on_validation_batch_end(self, outputs, batch, batch_idx, dataloader_idx=0):
        if outputs is not None:
            self.validation_step_outputs.append(outputs)

    def on_validation_epoch_end(self):
        outputs = self.validation_step_outputs
        self.validation_step_outputs = []
        self.log("n", float(len(outputs)))


class Child(Parent):
    # TODO(migrate-trainer): Lightning 2.0.9 never calls LightningModule.validation_epoch_end (removed in 2.0): use on_validation_epoch_end(self), which gets no outputs: append what validation_step returns (detach the tensors you keep) to a list the module owns, read it there and clear it; not rewritten: the class derives from the project's Parent, which has its own validation_epoch_end or on_validation_epoch_end [removed_hooks]
    def validation_epoch_end(self, outputs):
        print(outputs)
