"""Native AMP for sharded (ZeRO-style) data parallel training."""

from __future__ import annotations

import torch

from newcore.plugins.precision.amp import MixedPrecisionPlugin


class ShardedMixedPrecisionPlugin(MixedPrecisionPlugin):
    """Native AMP whose float16 scaler checks for inf/NaN across all shards of the gradients.

    A plain ``GradScaler`` only sees this rank's shard, so ranks could disagree on skipping a step.
    """

    def _make_scaler(self) -> torch.amp.GradScaler:
        # Imported here: torch.distributed is optional in some torch builds and slow to import.
        from torch.distributed.fsdp.sharded_grad_scaler import ShardedGradScaler

        return ShardedGradScaler("cuda")
