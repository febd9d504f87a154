try:
    import pytorch_lightning as pl

    class Base(pl.LightningModule):
        def validation_step(self, batch, batch_idx):
            return batch

except ImportError:  # a stand-in where Lightning is not installed: Base still counts

    class Base:
        pass
