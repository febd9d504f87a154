import pytorch_lightning as pl
"""How to quiet DDP:

    class QuietStrategy(DDPPlugin):
        ...
"""


def trainer():
    return pl.Trainer(max_epochs=1)
