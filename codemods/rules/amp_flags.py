"""``amp_backend=`` / ``amp_level=`` -> nothing (native AMP) or ``plugins=[ApexMixedPrecisionPlugin(amp_level=...)]``.

``amp_level`` was deprecated in Lightning 1.8 (pass it to ``ApexMixedPrecisionPlugin``) and ``amp_backend`` in
1.9; both are gone in 2.0, where apex is not supported at all (a TODO there). Native was the default backend,
and ``amp_level`` did nothing without apex. Where flags this plan cannot see may hold ``amp_backend`` (a splatted
dict, a ``params["amp_level"] = ...`` store) an ``amp_level`` alone gets a TODO: removing it would claim a
native backend nobody saw (and a store the front end keeps would be reported as removed).
"""

from __future__ import annotations

import dataclasses

from codemods.plan.model import Plan, Value
from codemods.plan.rule import Rule

ID = "amp_flags"
#: precision= values for which 1.5 used apex ("16-mixed": this rule's own 2.0 output, on a second run).
_HALF = (16, "16", "16-mixed")


def _lower(value: Value | None) -> object:
    """1.5 lower-cased ``amp_backend`` ("APEX" was apex)."""
    if value is None or not value.known:
        return value.lit if value is not None else None
    return value.lit.lower() if isinstance(value.lit, str) else value.lit


def _drop_both(plan: Plan, backend: Value | None, level: Value | None, why: str) -> None:
    for key, value in (("amp_backend", backend), ("amp_level", level)):
        if value is not None:
            plan.drop(key)
            plan.note(ID, f"removed {key}={value.text}: {why}")


def _apex_unused(plan: Plan) -> str | None:
    """Why 1.5 did not use apex for these flags (None: it did, or we cannot tell)."""
    precision = plan.get("precision")
    if precision is None and plan.opaque_rest:
        return None  # precision may be among the flags this plan cannot see (a store next to a dict with 16)
    if precision is None or (precision.known and precision.lit in (32, "32", "32-true", 64, "64", "64-true", None)):
        return "apex only ran for precision=16; 1.5 trained in full precision"
    accelerator = plan.get("accelerator")
    if accelerator is not None and accelerator.known and str(accelerator.lit).lower() in ("tpu", "ipu"):
        return f"on {str(accelerator.lit).upper()}s 1.5 chose its own precision plugin and never used apex"
    return None


def step(plan: Plan) -> None:
    backend, level = plan.get("amp_backend"), plan.get("amp_level")
    if backend is None and level is None:
        return
    name = _lower(backend)
    if backend is None and plan.opaque_rest:
        # amp_backend may be among the flags this plan cannot see (``params["amp_level"] = "O2"`` next to a
        # ``params["amp_backend"] = "apex"``): nothing says that native AMP ignored amp_level.
        assert level is not None
        gone = "is gone in 2.0" if plan.target >= (2, 0) and not plan.is_compat else "is deprecated in 1.8"
        plan.todo(
            ID,
            f"amp_level={level.text} {gone}, and amp_backend is not visible here: remove amp_level if the backend "
            "is native (it ignored amp_level); with amp_backend='apex' pass ApexMixedPrecisionPlugin(amp_level=...) "
            "in plugins= (apex is gone in 2.0: precision='16-mixed')",
        )
        return
    if backend is None or name in ("native", None):
        _drop_both(plan, backend, level, "native AMP is the default and ignores amp_level")
        return
    if backend.known and name != "apex" and _apex_unused(plan) is not None and not plan.get("precision"):
        # 1.5 read amp_backend only for precision=16: next to full precision any value went unread.
        _drop_both(plan, backend, level, "1.5 read amp_backend only for precision=16, and trained in full precision")
        return
    if not backend.known or name != "apex":
        if plan.target >= (2, 0) and not plan.is_compat:
            apex = "apex is gone in 2.0 (its precision=16 runs native AMP there: precision='16-mixed')"
        else:
            apex = "or pass ApexMixedPrecisionPlugin in plugins= for apex"
        plan.stop(ID, f"amp_backend={backend.text}: drop it for native AMP (the default); {apex}")
        return
    unused = _apex_unused(plan)
    if unused is not None:
        _drop_both(plan, backend, level, unused)
        return
    precision = plan.get("precision")
    strategy = plan.get("strategy")
    if precision is None or not precision.known or precision.lit not in _HALF:
        if plan.target >= (2, 0) and not plan.is_compat:
            fix = "apex is gone in 2.0: if it is 16, remove amp_backend/amp_level and use precision='16-mixed'"
        else:
            fix = "add ApexMixedPrecisionPlugin to plugins= if it is 16"
        plan.stop(ID, f"amp_backend='apex' only ran for precision=16: {fix}")
        return
    if strategy is not None and (
        (strategy.known and str(strategy.lit).lower().startswith("deepspeed"))
        or (strategy.is_strategy and "DeepSpeed" in (strategy.source or ""))
    ):
        plan.stop(
            ID,
            "with DeepSpeed, 1.5 passed apex to DeepSpeed's own config (amp.enabled, amp.opt_level): "
            "set it in the DeepSpeed config and remove amp_backend/amp_level",
        )
        return
    if plan.target >= (2, 0) and not plan.is_compat:
        plan.todo(ID, "apex AMP is gone in 2.0: remove amp_backend/amp_level and use precision='16-mixed'")
        return
    plugins = plan.get("plugins")
    if plugins is not None and plugins.items is None:
        plan.stop(ID, "add ApexMixedPrecisionPlugin(amp_level=...) to plugins= and remove amp_backend/amp_level")
        return
    # amp_level=None meant the plugin's default ("O2"): the plugin refuses None, so leave the argument out.
    kwargs = {"amp_level": level} if level is not None and not (level.known and level.lit is None) else {}
    plugin = Value(ctor=("plugins.ApexMixedPrecisionPlugin", kwargs), source="ApexMixedPrecisionPlugin(...)")
    plan.imports.append(("plugins", "ApexMixedPrecisionPlugin"))
    if plugins is not None and plugins.items is not None:
        # A new value, never the old one changed in place: a trial copy of the plan shares the old one.
        plan.set("plugins", dataclasses.replace(plugins, items=[*plugins.items, plugin]))
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
