"""Plugins: precision, cluster environments, checkpoint IO and layer synchronisation.

No optional backend (torch-xla, horovod, deepspeed, apex, poptorch) is imported here; each is
imported by the method that needs it.
"""

from newcore.plugins.environments import (
    ClusterEnvironment,
    KubeflowEnvironment,
    LightningEnvironment,
    LSFEnvironment,
    SLURMEnvironment,
    TorchElasticEnvironment,
)
from newcore.plugins.io import CheckpointIO, TorchCheckpointIO, XLACheckpointIO
from newcore.plugins.layer_sync import LayerSync, NativeSyncBatchNorm
from newcore.plugins.precision import (
    ApexMixedPrecisionPlugin,
    DeepSpeedPrecisionPlugin,
    DoublePrecisionPlugin,
    FullyShardedMixedPrecisionPlugin,
    IPUPrecisionPlugin,
    MixedPrecisionPlugin,
    PrecisionPlugin,
    ShardedMixedPrecisionPlugin,
    TPUBf16PrecisionPlugin,
    TPUPrecisionPlugin,
    normalize_precision,
)

__all__ = [
    "ApexMixedPrecisionPlugin",
    "CheckpointIO",
    "ClusterEnvironment",
    "DeepSpeedPrecisionPlugin",
    "DoublePrecisionPlugin",
    "FullyShardedMixedPrecisionPlugin",
    "IPUPrecisionPlugin",
    "KubeflowEnvironment",
    "LSFEnvironment",
    "LayerSync",
    "LightningEnvironment",
    "MixedPrecisionPlugin",
    "NativeSyncBatchNorm",
    "PrecisionPlugin",
    "SLURMEnvironment",
    "ShardedMixedPrecisionPlugin",
    "TPUBf16PrecisionPlugin",
    "TPUPrecisionPlugin",
    "TorchCheckpointIO",
    "TorchElasticEnvironment",
    "XLACheckpointIO",
    "normalize_precision",
]
