"""`TPUHalfPrecisionPlugin` became `TPUBf16PrecisionPlugin` in 1.5; `NativeMixedPrecisionPlugin` was deprecated in 1.9
for `MixedPrecisionPlugin` (module `plugins.precision.amp` in 2.0); apex and FairScale precision plugins are gone in
2.0 (TODO). For compat code the FairScale plugins map to newcore's `Sharded/FullyShardedMixedPrecisionPlugin`.

A table-driven rename: the rows live in ``legacy_api.renames`` and the generic machinery in ``_rename``.
"""

from __future__ import annotations

from codemods.rule import Rule

RULE = Rule(
    id="precision_plugins",
    description="NativeMixed/TPUHalf precision plugins are renamed; FairScale/apex ones are renamed or flagged",
    deprecated_in="1.5",
    tokens=(
        "MixedPrecisionPlugin",
        "TPUHalfPrecisionPlugin",
        "native_amp",
    ),
)
