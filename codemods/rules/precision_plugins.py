"""Precision plugins: their renames (table rows) and, from target 2.0, the constructor arguments 2.x refuses.

Renames (rows in ``legacy_api.renames``, the generic machinery in ``_rename``): `TPUHalfPrecisionPlugin` became
`TPUBf16PrecisionPlugin` in 1.5; `NativeMixedPrecisionPlugin` was deprecated in 1.9 for `MixedPrecisionPlugin`
(module `plugins.precision.amp` in 2.0); apex and FairScale precision plugins are gone in 2.0 (TODO); 2.1 deprecated
the TPU plugins for `XLAPrecisionPlugin` (bf16: ``precision="bf16-true"``) and `FSDPMixedPrecisionPlugin` for
`FSDPPrecisionPlugin`; 2.2 deprecated every ``*PrecisionPlugin`` name for ``*Precision`` (`MixedPrecision`,
`DoublePrecision`, ...). For compat code the FairScale plugins map to newcore's
`Sharded/FullyShardedMixedPrecisionPlugin`.

Arguments (``codemods.rules._precision_args``): 1.x's AMP plugins took ``precision=16``/``"bf16"``; 2.0's refuse them
(``Precision must be '16-mixed' or 'bf16-mixed'``), so a literal becomes ``"16-mixed"``/``"bf16-mixed"`` and
anything else gets a TODO naming the accepted values. Facts: legacy_api/LIGHTNING_2X.md.
"""

from __future__ import annotations

from codemods.plan.rule import Rule
from codemods.rules._precision_args import ID, leave_call

RULE = Rule(
    id=ID,
    description="precision plugins are renamed (NativeMixed, TPU, *Plugin -> *Precision) or flagged (apex, "
    "FairScale); their 1.x precision arguments become 2.x's",
    deprecated_in="1.5",
    handlers={"Call": leave_call},
    tokens=(
        "PrecisionPlugin",
        "native_amp",
    ),
)
