"""A strategy name or object in ``accelerator=`` -> ``strategy=``.

Deprecated in Lightning 1.5 ("Passing `Trainer(accelerator='ddp')` has been deprecated in v1.5 and will be
removed in v1.7. Use `Trainer(strategy='ddp')` instead."), removed in 1.7. ``a if c else b`` with strategy
names (or None) in both branches moves as a whole.
"""

from __future__ import annotations

from codemods.plan.expressions import none_as_auto
from codemods.plan.model import Plan, Value, new
from codemods.plan.rule import Rule
from legacy_api.renames import ACCELERATOR_NAMES, STRATEGY_NAMES

ID = "accelerator_strategy"


def kind(value: Value) -> str:
    """What a value of accelerator= names: strategy, accelerator, none, unknown, mixed or invalid."""
    if value.is_strategy:
        return "strategy"
    if value.accelerator_kind is not None:
        return "accelerator"
    options = value.facts.options if value.facts is not None and not value.known else None
    if value.cond is not None or options is not None:
        # both branches of ``a if c else b``, or every literal a name bound once may hold
        # (codemods.frontends.python.bindings)
        kinds = {kind(value.cond[1]), kind(value.cond[2])} if value.cond else {kind(new(o)) for o in options or ()}
        if kinds <= {"accelerator", "none"}:
            return "accelerator"
        return "strategy" if kinds <= {"strategy", "none"} else "mixed"
    if not value.known:
        return "unknown"
    if value.lit is None:
        return "none"
    if isinstance(value.lit, str) and value.lit.lower() in STRATEGY_NAMES:
        return "strategy"
    if isinstance(value.lit, str) and value.lit.lower() in ACCELERATOR_NAMES:
        return "accelerator"
    return "invalid"


def step(plan: Plan) -> None:
    accelerator = plan.get("accelerator")
    if accelerator is None:
        return
    named = kind(accelerator)
    if named in ("accelerator", "none"):
        return
    if named != "strategy":
        plan.stop(
            ID,
            f"accelerator={accelerator.text} may name a strategy (ddp, dp, ...): strategy names go to strategy= "
            "since 1.5, accelerator= takes cpu/gpu/tpu/ipu/auto",
        )
        return
    if "strategy" in plan:
        if plan.origin.get("strategy", "explicit") == "explicit":
            plan.stop(ID, f"strategy= and accelerator={accelerator.text} both select a strategy: keep one")
            return
        plan.drop("accelerator")
        plan.note(ID, f"dropped accelerator={accelerator.text}: Lightning 1.5 used the strategy from plugins=")
        return
    if plan.strategy_beside:  # every caller passes plugins=[DDPPlugin()], or the defaults list composes one
        plan.drop("accelerator")
        plan.note(
            ID,
            f"dropped accelerator={accelerator.text}: a strategy object comes with these flags (every call that "
            "takes them passes one, or the defaults list composes one), which Lightning 1.5 used (a strategy= here "
            "would be a second strategy)",
        )
        return
    auto = none_as_auto(accelerator) if plan.target >= (2, 0) and not plan.is_compat else None
    plan.replace("accelerator", [("strategy", auto or accelerator)])
    plan.origin["strategy"] = ID
    plan.note(ID, f"accelerator={accelerator.text} is a strategy: use strategy= (deprecated in 1.5)")
    if auto is not None:  # 2.0 rejects strategy=None, and trainer_defaults may not run after another rule's TODO
        plan.note(ID, f'{accelerator.text} may be None, which 2.0 rejects: "auto" in its place')


RULE = Rule(
    id=ID,
    description="a strategy name or object passed as accelerator= moves to strategy=",
    deprecated_in="1.5",
    scope="flags",
    step=step,
    order=25,
    tokens=("accelerator", "distributed_backend"),
)
