"""`TPUAccelerator` and `SingleTPUStrategy` were deprecated in Lightning 2.1 (#17383) for `XLAAccelerator` and
`SingleDeviceXLAStrategy` (they still work, with a warning, in 2.6). pytorch_lightning only: newcore keeps the 1.6
names. The TPU precision plugins' 2.1 fate is ``precision_plugins``'; ``strategy="single_tpu"`` is a strategy name.

A table-driven rename: the rows live in ``legacy_api.renames`` and the generic machinery in ``_rename``.
"""

from __future__ import annotations

from codemods.plan.rule import Rule

RULE = Rule(
    id="xla_names",
    description="TPUAccelerator / SingleTPUStrategy become XLAAccelerator / SingleDeviceXLAStrategy",
    deprecated_in="2.1",
    tokens=(
        "TPUAccelerator",
        "SingleTPU",
        "single_tpu",
    ),
)
