"""1.0's Trainer(checkpoint_callback=ModelCheckpoint(...)): 1.5 read the object as True and used its own callback,
unless callbacks= held a ModelCheckpoint (then that one)."""

import tempfile

import pytorch_lightning as pl
from pytorch_lightning.callbacks import ModelCheckpoint


def describe(label, trainer, mine):
    for callback in trainer.checkpoint_callbacks:
        print("OUT", label, type(callback).__name__, callback.monitor, callback is mine)


if __name__ == "__main__":
    folder = tempfile.mkdtemp()
    checkpoint_callback = ModelCheckpoint(dirpath=folder, monitor="val_loss")
    alone = pl.Trainer(checkpoint_callback=checkpoint_callback, logger=False, max_epochs=1)
    describe("alone", alone, checkpoint_callback)
    listed = pl.Trainer(checkpoint_callback=checkpoint_callback, callbacks=[checkpoint_callback], logger=False)
    describe("listed", listed, checkpoint_callback)
