"""Strategy and accelerator names of the 1.x API, as strings and as class names.

Standard library only. Import them from :mod:`legacy_api.renames`.
"""

from __future__ import annotations

from legacy_api import lightning15
from legacy_api._rename_rows import _STRATEGIES

# --- strategy / accelerator string names --------------------------------------------------------------------------
#: Every strategy name Lightning 1.5 accepted (registry variants + ``DistributedType`` values).
STRATEGY_NAMES: frozenset[str] = frozenset(
    {
        "dp",
        "ddp",
        "ddp2",
        "ddp_spawn",
        "deepspeed",
        "horovod",
        "ddp_sharded",
        "ddp_sharded_spawn",
        "ddp_fully_sharded",
        "fsdp",
        "tpu_spawn_debug",
        "ddp_find_unused_parameters_false",
        "ddp_spawn_find_unused_parameters_false",
        "ddp_sharded_find_unused_parameters_false",
        "ddp_sharded_spawn_find_unused_parameters_false",
        "deepspeed_stage_1",
        "deepspeed_stage_2",
        "deepspeed_stage_2_offload",
        "deepspeed_stage_3",
        "deepspeed_stage_3_offload",
        "deepspeed_stage_3_offload_nvme",
    }
)
#: Strategy classes by simple name, old and new: ``plugins=[DDPPlugin()]`` and ``plugins=[DDPStrategy()]`` alike.
STRATEGY_CLASSES: frozenset[str] = frozenset(
    {old for old, _, _ in _STRATEGIES}
    | {new for _, _, new in _STRATEGIES}
    | {"XLAStrategy", "FSDPStrategy", "DDPFullyShardedNativeStrategy", "BaguaStrategy", "HPUParallelStrategy"}
)
#: Accelerator names (1.5-1.7); anything else in ``accelerator=`` was a strategy or an error.
ACCELERATOR_NAMES: frozenset[str] = frozenset({"cpu", "gpu", "tpu", "ipu", "hpu", "cuda", "mps", "auto"})
#: Legacy device-count flags and the accelerator each one implies.
DEVICE_FLAGS = lightning15.DEVICE_FLAGS
