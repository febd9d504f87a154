import pytorch_lightning as pl


class Parent(pl.LightningModule):
    """Rewritten in the same run: a subclass's TODO must read the same on the next run."""

    def __init__(self):
        super().__init__()

    def validation_step(self, batch, batch_idx):
        return batch

    def validation_epoch_end(self, outputs):
        self.log("n", float(len(outputs)))


class Child(Parent):
    def validation_epoch_end(self, outputs):
        print(outputs)
