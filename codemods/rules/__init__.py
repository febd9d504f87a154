"""The rule registry: importing this package registers every rule, in a stable order.

One rule per module; the module name is the rule id. ``--list-rules``, ``--only``/``--skip``, MIGRATION.md and
the tests all read :data:`REGISTRY`.
"""

from __future__ import annotations

import importlib
from collections import defaultdict

from codemods.rules._base import Handler, Rule

#: Module names, in the order their hooks run. Rename and Trainer-flag machinery is shared (``_rename``,
#: ``codemods.pyflags``); the modules below carry each rule's id, docs and steps.
RULE_MODULES: tuple[str, ...] = (
    "strategy_plugins",
    "strategy_removals",
    "gpu_accelerator",
    "precision_plugins",
    "compat_imports",
    "enum_members",
    "trainer_properties",
    "distributed_backend",
    "ddp_cpu",
    "plugins_strategy",
    "accelerator_strategy",
    "device_flags",
    "legacy_fallbacks",
    "amp_flags",
    "auto_select_gpus",
    "precision_values",
    "strategy_names",
    "trainer_defaults",
    "replace_sampler_ddp",
    "yaml_interpolations",
    "argparse_flags",
)


def _load() -> dict[str, Rule]:
    registry: dict[str, Rule] = {}
    for name in RULE_MODULES:
        rule: Rule = importlib.import_module(f"{__name__}.{name}").RULE
        if rule.id != name:
            raise RuntimeError(f"rule module {name} declares id {rule.id!r}: the id must be the module name")
        registry[rule.id] = rule
    return registry


REGISTRY: dict[str, Rule] = _load()


def flag_rules() -> list[Rule]:
    """Rules that rewrite sets of Trainer flags, in the order they run."""
    return sorted((rule for rule in REGISTRY.values() if rule.step is not None), key=lambda rule: rule.order)


def build_hooks(options: object) -> tuple[dict[str, list[Handler]], dict[str, list[Handler]]]:
    """Leave and visit hooks of the enabled rules, keyed by libcst node class name."""
    from codemods import pyflags
    from codemods.rules import _rename

    enabled = getattr(options, "enabled")  # noqa: B009 - engine.Options, not imported here to avoid a cycle
    leave: dict[str, list[Handler]] = defaultdict(list)
    visit: dict[str, list[Handler]] = defaultdict(list)
    if any(enabled(rule) for rule in _rename.RULE_IDS):
        for kind, rename_handler in _rename.HANDLERS.items():
            leave[kind].append(rename_handler)
    for rule in REGISTRY.values():
        if enabled(rule.id):
            for kind, handler in rule.handlers.items():
                (visit if kind.startswith("visit_") else leave)[kind.removeprefix("visit_")].append(handler)
    for kind, flags_handler in pyflags.HANDLERS.items():
        leave[kind].append(flags_handler)
    return dict(leave), dict(visit)


__all__ = ["REGISTRY", "RULE_MODULES", "Rule", "build_hooks", "flag_rules"]
