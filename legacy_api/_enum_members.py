"""Enums of the 1.x API whose members become their string values (``ENUM_MEMBERS``).

Standard library only. Import it from :mod:`legacy_api.renames`.
"""

from __future__ import annotations

# --- enums: members become their string values ------------------------------------------------------------------
#: enum (relative qualified name) -> (deprecated_in, removed_in, {member: string value}).
#: ``DeviceType`` values were upper case in 1.5; ``LightningEnum`` compared case-insensitively, and every new API
#: (``accelerator="gpu"``) spells them in lower case, so the lower-case spelling is the faithful replacement.
_DISTRIBUTED = {
    "DP": "dp",
    "DDP": "ddp",
    "DDP2": "ddp2",
    "DDP_CPU": "ddp_cpu",
    "DDP_SPAWN": "ddp_spawn",
    "TPU_SPAWN": "tpu_spawn",
    "DEEPSPEED": "deepspeed",
    "HOROVOD": "horovod",
    "DDP_SHARDED": "ddp_sharded",
    "DDP_SHARDED_SPAWN": "ddp_sharded_spawn",
    "DDP_FULLY_SHARDED": "ddp_fully_sharded",
    "HPU_PARALLEL": "hpu_parallel",
}
_DEVICE = {"CPU": "cpu", "GPU": "gpu", "IPU": "ipu", "TPU": "tpu", "HPU": "hpu"}
_AMP = {"NATIVE": "native", "APEX": "apex"}
_PRECISION = {"HALF": "16", "FLOAT": "32", "FULL": "64", "BFLOAT": "bf16", "MIXED": "mixed"}

ENUM_MEMBERS: dict[str, tuple[str, str, dict[str, str]]] = {
    "utilities.enums.DistributedType": ("1.6", "1.8", _DISTRIBUTED),
    "utilities.DistributedType": ("1.6", "1.8", _DISTRIBUTED),
    "utilities.enums.DeviceType": ("1.6", "1.8", _DEVICE),
    "utilities.DeviceType": ("1.6", "1.8", _DEVICE),
    "utilities.enums.AMPType": ("1.9", "2.0", _AMP),
    "utilities.AMPType": ("1.9", "2.0", _AMP),
    "utilities.enums.PrecisionType": ("1.9", "2.0", _PRECISION),
    "utilities.PrecisionType": ("1.9", "2.0", _PRECISION),
}
