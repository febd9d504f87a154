"""CheckpointIO plugins: how checkpoint dictionaries are written and read."""

from newcore.plugins.io.checkpoint_plugin import CheckpointIO
from newcore.plugins.io.torch_plugin import TorchCheckpointIO
from newcore.plugins.io.xla_plugin import XLACheckpointIO

__all__ = ["CheckpointIO", "TorchCheckpointIO", "XLACheckpointIO"]
