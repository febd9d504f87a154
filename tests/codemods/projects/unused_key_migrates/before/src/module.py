import pytorch_lightning as pl


class Model(pl.LightningModule):
    def on_train_start(self):
        # the Trainer's own property, not the config key
        print(self.trainer.max_epochs)
