import pytorch_lightning as pl

from tools import QuietStrategy


def build():
    # QuietStrategy is the project's own plugin-like helper here, not a strategy
    return pl.Trainer(plugins=[QuietStrategy()], max_epochs=1)
