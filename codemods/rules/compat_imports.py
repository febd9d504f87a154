"""Code written against `compat` (the 1.5-style layer) is migrated to `newcore`: the module layout is the same except
where the table renames it, and `compat.Runner`/`compat.AcceleratorConnector` become their newcore counterparts. The
compat layer's names are deprecated since this project's 1.6-style core.

A table-driven rename: the rows live in ``legacy_api.renames`` and the generic machinery in ``_rename``.
"""

from __future__ import annotations

from codemods.plan.rule import Rule

RULE = Rule(
    id="compat_imports",
    description="imports from this project's compat layer move to newcore",
    deprecated_in="1.6",
    tokens=("compat",),
)
