"""Precision plugins: how modules are cast, the forward pass autocast and the loss scaled."""

from newcore.plugins.precision.amp import MixedPrecisionPlugin
from newcore.plugins.precision.apex_amp import ApexMixedPrecisionPlugin
from newcore.plugins.precision.deepspeed import DeepSpeedPrecisionPlugin
from newcore.plugins.precision.double import DoublePrecisionPlugin
from newcore.plugins.precision.fully_sharded_native_amp import FullyShardedMixedPrecisionPlugin
from newcore.plugins.precision.ipu import IPUPrecisionPlugin
from newcore.plugins.precision.precision_plugin import PrecisionPlugin, normalize_precision
from newcore.plugins.precision.sharded_native_amp import ShardedMixedPrecisionPlugin
from newcore.plugins.precision.tpu import TPUPrecisionPlugin
from newcore.plugins.precision.tpu_bf16 import TPUBf16PrecisionPlugin

__all__ = [
    "ApexMixedPrecisionPlugin",
    "DeepSpeedPrecisionPlugin",
    "DoublePrecisionPlugin",
    "FullyShardedMixedPrecisionPlugin",
    "IPUPrecisionPlugin",
    "MixedPrecisionPlugin",
    "PrecisionPlugin",
    "ShardedMixedPrecisionPlugin",
    "TPUBf16PrecisionPlugin",
    "TPUPrecisionPlugin",
    "normalize_precision",
]
