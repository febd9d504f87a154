"""`GPUAccelerator` was deprecated in Lightning 1.7 (#13636) in favour of `CUDAAccelerator` and removed in 1.9.

A table-driven rename: the rows live in ``legacy_api.renames`` and the generic machinery in ``_rename``.
"""

from __future__ import annotations

from codemods.plan.rule import Rule

RULE = Rule(
    id="gpu_accelerator",
    description="GPUAccelerator (accelerators.gpu) becomes CUDAAccelerator (accelerators.cuda)",
    deprecated_in="1.7",
    tokens=(
        "GPUAccelerator",
        "accelerators.gpu",
    ),
)
