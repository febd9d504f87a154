import pytorch_lightning as pl


class Generator(pl.LightningModule):
    """The project's own LightningModule base."""
