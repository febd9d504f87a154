"""Project-local strategy plugin, used from train.py through plugins=[...]."""

from pytorch_lightning.plugins import DDPPlugin


class QuietDDPPlugin(DDPPlugin):
    """DDP that never searches for unused parameters."""

    def __init__(self, **kwargs):
        super().__init__(find_unused_parameters=False, **kwargs)
