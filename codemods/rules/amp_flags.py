"""``amp_backend=`` / ``amp_level=`` -> nothing (native AMP) or ``plugins=[ApexMixedPrecisionPlugin(amp_level=...)]``.

``amp_level`` was deprecated in Lightning 1.8 (pass it to ``ApexMixedPrecisionPlugin``) and ``amp_backend`` in
1.9; both are gone in 2.0, where apex is not supported at all (a TODO there). Native was the default backend,
and ``amp_level`` did nothing without apex.
"""

from __future__ import annotations

from codemods.flags import Plan, Value
from codemods.rules._base import Rule

ID = "amp_flags"


def step(plan: Plan) -> None:
    backend, level = plan.get("amp_backend"), plan.get("amp_level")
    if backend is None and level is None:
        return
    if backend is None or (backend.known and backend.lit in ("native", None)):
        for key, value in (("amp_backend", backend), ("amp_level", level)):
            if value is not None:
                plan.drop(key)
                plan.note(ID, f"removed {key}={value.text}: native AMP is the default and ignores amp_level")
        return
    if not backend.known or backend.lit != "apex":
        plan.todo(
            ID, f"amp_backend={backend.text}: drop it for native AMP, or pass ApexMixedPrecisionPlugin in plugins="
        )
        plan.stopped = True
        return
    if plan.target >= (2, 0) and not plan.is_compat:
        plan.todo(ID, "apex AMP is gone in 2.0: remove amp_backend/amp_level and use precision='16-mixed'")
        return
    plugins = plan.get("plugins")
    if plugins is not None and plugins.items is None:
        plan.todo(ID, "add ApexMixedPrecisionPlugin(amp_level=...) to plugins= and remove amp_backend/amp_level")
        plan.stopped = True
        return
    kwargs = {"amp_level": level} if level is not None else {}
    plugin = Value(ctor=("plugins.ApexMixedPrecisionPlugin", kwargs), source="ApexMixedPrecisionPlugin(...)")
    plan.imports.append(("plugins", "ApexMixedPrecisionPlugin"))
    if plugins is not None and plugins.items is not None:
        plugins.items.append(plugin)
        plan.drop("amp_backend")
    else:
        plan.replace("amp_backend", [("plugins", Value(items=[plugin]))])
    plan.drop("amp_level")
    plan.note(ID, "amp_backend='apex' became plugins=[ApexMixedPrecisionPlugin(...)] (deprecated in 1.8/1.9)")


RULE = Rule(
    id=ID,
    description="amp_backend=/amp_level= become native AMP or an ApexMixedPrecisionPlugin",
    deprecated_in="1.8",
    scope="flags",
    step=step,
    order=40,
    tokens=("amp_backend", "amp_level"),
)
