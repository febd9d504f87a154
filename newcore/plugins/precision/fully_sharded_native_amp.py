"""Native AMP for fully sharded data parallel training (FSDP)."""

from __future__ import annotations

from newcore.plugins.precision.sharded_native_amp import ShardedMixedPrecisionPlugin


class FullyShardedMixedPrecisionPlugin(ShardedMixedPrecisionPlugin):
    """Native AMP for FSDP: parameters are sharded too, so the float16 scaler must reduce across shards."""
