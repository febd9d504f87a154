"""The rule registry: every module of this package is a rule, found by listing the package (never by hand).

One rule per module; the module name is the rule id, and its ``RULE`` (a :class:`codemods.plan.rule.Rule`) says
what it rewrites, since which Lightning version, and where in the one order it runs (``Rule.order``, then the
id). ``--list-rules``, ``--only``/``--skip``, MIGRATION.md and the tests all read :data:`REGISTRY`; the front
ends run :func:`flag_rules` and the Python pipeline collects the hooks (``codemods.frontends.python.pipeline``).

:data:`REGISTRY` is loaded on first use, not when the package is imported: importing one rule module
(``codemods.rules.legacy_keys``, which every Python file's report reads) then loads neither the other rules
nor libcst, which a ``--check`` of a clean tree never needs.
"""

from __future__ import annotations

import importlib
import pkgutil

from codemods.plan.rule import Rule


def _load() -> dict[str, Rule]:
    rules: list[Rule] = []
    for module in sorted(info.name for info in pkgutil.iter_modules(__path__) if not info.name.startswith("_")):
        rule: Rule = importlib.import_module(f"{__name__}.{module}").RULE
        if rule.id != module:
            raise RuntimeError(f"rule module {module} declares id {rule.id!r}: the id must be the module name")
        rules.append(rule)
    return {rule.id: rule for rule in sorted(rules, key=lambda rule: (rule.order, rule.id))}


#: Every rule, in the order its hooks and steps run (bound by :func:`registry` on first use).
REGISTRY: dict[str, Rule]


def registry() -> dict[str, Rule]:
    """:data:`REGISTRY`, loading every rule module the first time."""
    global REGISTRY
    if "REGISTRY" not in globals():
        REGISTRY = _load()
    return REGISTRY


def __getattr__(name: str) -> object:
    # PEP 562: ``from codemods.rules import REGISTRY`` and ``rules.REGISTRY`` load the registry here.
    if name == "REGISTRY":
        return registry()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def flag_rules() -> list[Rule]:
    """Rules that rewrite sets of Trainer flags, in the order they run."""
    return [rule for rule in registry().values() if rule.step is not None]


__all__ = ["REGISTRY", "Rule", "flag_rules", "registry"]
