"""A callback that inspects the strategy the legacy way."""

from pytorch_lightning import Callback
from pytorch_lightning.plugins import DDP2Plugin, DDPPlugin
from pytorch_lightning.utilities import DistributedType


class LogStrategy(Callback):
    def __init__(self, gpus=None):
        # A user's own ``gpus`` attribute: not the Trainer's, so it stays.
        self.gpus = gpus

    def on_train_start(self, trainer, pl_module):
        plugin = trainer.training_type_plugin
        if isinstance(plugin, (DDPPlugin, DDP2Plugin)):
            print("distributed on", trainer.accelerator.training_type_plugin.root_device)
        if trainer._distrib_type in {DistributedType.DP, DistributedType.DDP2}:
            print("data parallel")
        print(self.gpus)
