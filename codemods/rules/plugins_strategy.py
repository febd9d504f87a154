"""A strategy passed through ``plugins=`` -> ``strategy=``.

Deprecated in Lightning 1.5 and removed in 1.7. The other plugins (precision, cluster environment,
checkpoint IO) stay in ``plugins=``. In 1.5/1.6 a strategy in ``plugins=`` overrode a strategy name passed
through ``accelerator=``, and clashed with an explicit ``strategy=``. A name that may hold a strategy
(:attr:`Value.bound_strategy`, ``ds = DeepSpeedPlugin() if x else None; Trainer(plugins=ds)``) is not moved
(it may be None, or not the strategy on every path) but named in a TODO from target 1.7.
"""

from __future__ import annotations

from codemods.plan.model import Plan, Value
from codemods.plan.rule import Rule
from legacy_api.renames import STRATEGY_NAMES

ID = "plugins_strategy"


def _is_strategy(value: Value) -> bool:
    return value.is_strategy or (value.known and isinstance(value.lit, str) and value.lit.lower() in STRATEGY_NAMES)


def _bound(plan: Plan, plugins: Value) -> bool:
    """A name in ``plugins=`` that its scope binds to a strategy: a TODO where the target removed the route."""
    names = [plugins] if plugins.items is None else plugins.items
    bound = [value for value in names if value.bound_strategy is not None and not value.is_strategy]
    if not bound or not plan.applies(ID, (1, 7)):
        return False
    for value in bound:
        plan.todo(
            ID,
            f"plugins={value.text} may hold a {value.bound_strategy} (a strategy): 1.7 removed strategies from "
            'plugins=: pass it as strategy= (where it may be None, 2.0 wants strategy="auto" instead)',
        )
    return True


def step(plan: Plan) -> None:
    plugins = plan.get("plugins")
    if plugins is None or _bound(plan, plugins):
        return
    if plugins.items is None:
        if not _is_strategy(plugins):
            return
        strategies, rest = [plugins], []
    else:
        strategies = [item for item in plugins.items if _is_strategy(item)]
        rest = [item for item in plugins.items if not _is_strategy(item)]
    if not strategies:
        return
    if len(strategies) > 1 or ("strategy" in plan and plan.origin.get("strategy", "explicit") == "explicit"):
        plan.stop(ID, "only one strategy can be selected: pass it as strategy= and remove it from plugins=")
        return
    moved: list[tuple[str, Value]] = [("strategy", strategies[0])]
    if rest:
        moved.append(("plugins", Value(node=plugins.node, items=rest)))
    plan.replace("plugins", moved)
    plan.origin["strategy"] = ID
    plan.note(ID, f"strategy {strategies[0].text} moved from plugins= to strategy= (deprecated in 1.5)")


RULE = Rule(
    id=ID,
    description="a strategy passed in plugins= moves to strategy=",
    deprecated_in="1.5",
    scope="flags",
    step=step,
    order=20,
    tokens=("plugins",),
)
