"""Decisions that need the whole project: may this Trainer section of a config be migrated as planned?

The rules plan a section's rewrite from the section alone; :func:`guard_section` then checks the plan against
the project index (``codemods.index``) and says why it must not be applied:

* a key the plan removes or renames is still used elsewhere (``cfg.trainer.gpus`` in Python, a
  ``trainer.gpus=2`` override in a script or a doc that is left as it is, ``${trainer.gpus}`` in another
  config file; an override command that ``codemods.overrides`` rewrites in the same run migrates with the key,
  so it does not count), or a key
  whose value it changes is read elsewhere (``cfg.trainer.precision == 16``; an override string still sets a
  key whose value changed, so it does not block): a key is migrated together with every use, or not at all;
* a key the plan adds is missing from the project's own structured-config schema, or a value it writes has a
  type the schema forbids (``precision: 16-mixed`` where the schema says ``int``);
* a key the plan adds is also passed explicitly next to the section (``Trainer(strategy=X, **cfg.trainer)``):
  a duplicate keyword, or two strategies for one Trainer.

The front end then leaves the section as it is, with one TODO that says why.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from codemods.index import STRATEGY_PLUGIN, ProjectIndex, Schema, describe
from codemods.overrides.decide import migrates

if TYPE_CHECKING:
    from codemods.model import Options
    from codemods.plan import Value

RULE = "project_guard"
#: Flags that choose a strategy: a section that gains ``strategy`` conflicts with any of them passed explicitly.
_STRATEGY_FLAGS = frozenset({"strategy", "plugins", "accelerator", "distributed_backend"})
#: Legacy flags passed next to a section, as the flags they become once that code migrates: the clash is the
#: same before and after the Python side is rewritten, so a second run reaches the same decision.
_BECOMES: dict[str, tuple[str, ...]] = {
    "gpus": ("accelerator", "devices"),
    "tpu_cores": ("accelerator", "devices"),
    "ipus": ("accelerator", "devices"),
    "num_processes": ("accelerator", "devices"),
    "distributed_backend": ("strategy", "accelerator"),
    "accelerator": ("strategy",),
    "plugins": ("strategy",),
    "amp_backend": ("precision",),
    "amp_level": ("precision",),
    "replace_sampler_ddp": ("use_distributed_sampler",),
}
_INT_ANNOTATIONS = re.compile(r"^(?:int|Optional\[int\]|int \| None|None \| int)$")
_USED = " is still used in "


def _changed(before: dict[str, Value], after: dict[str, Value]) -> list[str]:
    return sorted(key for key, value in before.items() if after.get(key) is not value)


def _schemas(index: ProjectIndex, keys: Sequence[str]) -> list[Schema]:
    """The schemas that describe this section: those naming any of its keys."""
    wanted = set(keys)
    return [schema for schema in index.schemas if wanted & {name for name, _ in schema.fields}]


def guard_section(
    options: Options,
    path: str,
    section: str,
    before: Sequence[tuple[str, Value]],
    after: Sequence[tuple[str, Value]],
    present: Sequence[str] = (),
) -> list[str]:
    """Why the planned rewrite of config section ``section`` (dotted path) in ``path`` must not be applied.

    ``present``: every key the section has, those kept out of the plan included; which schema types the section
    is decided from them, so that the decision does not change once part of the section has migrated.
    """
    index = getattr(options, "project", None)
    if not isinstance(index, ProjectIndex):
        return []
    old, new = dict(before), dict(after)
    name = section.rpartition(".")[2] or "trainer"
    reasons: list[str] = []
    for key in _changed(old, new):
        uses = index.uses_of(f"{name}.{key}", outside=path)
        if key in new:  # the key stays with another value: an override string still sets it, a read sees it
            uses = [use for use in uses if use.kind != "override"]
        # an override command rewritten in this run migrates with the key; one left as it is still holds it
        uses = [use for use in uses if not migrates(use, index, options)]
        if uses:
            reasons.append(
                f"{name}.{key}{_USED}{describe(uses, index.root)}: migrate those uses together with this key"
            )
    added = sorted(key for key in new if key not in old)
    schemas = _schemas(index, sorted({*old, *present}))
    for key in added:
        for schema in schemas:
            if schema.annotation(key) is None:
                reasons.append(f"{name}.{key} is not a field of {schema.name} ({index.where(schema.path)})")
        for splat in index.splats_of(section):
            passed = {*splat.keywords, *(new_key for k in splat.keywords for new_key in _BECOMES.get(k, ()))}
            duplicate = key in passed and splat.kind == "call"
            if duplicate or (key == "strategy" and _STRATEGY_FLAGS & passed):
                where = index.where(splat.path)
                reasons.append(f"{name}.{key} would clash with the flags passed next to {name} at {where}")
    if "strategy" in added:
        plugins = [use for use in index.uses if use.key == STRATEGY_PLUGIN and use.path != path]
        if plugins:
            reasons.append(
                f"{name}.strategy would make a second strategy next to the strategy plugin in "
                f"{describe(plugins, index.root)} (Hydra may compose it into this trainer): keep one"
            )
    for key, value in sorted(new.items()):
        if old.get(key) is value or not isinstance(value.lit, str):
            continue
        for schema in schemas:
            annotation = schema.annotation(key)
            if annotation is not None and _INT_ANNOTATIONS.match(annotation):
                reasons.append(f"{name}.{key}={value.lit} does not fit {schema.name}.{key}: {annotation}")
    return sorted(dict.fromkeys(reasons))


def blocked_keys(message: str) -> list[str]:
    """The dotted keys a guard message says are still used elsewhere (for TODOs at those uses)."""
    return [part.split(_USED, 1)[0].strip() for part in message.split("; ") if _USED in part]
