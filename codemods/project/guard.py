"""The project guard's checks of one Trainer section's planned rewrite, for a given set of migrating overrides.

:func:`codemods.project.decisions.guard_section` runs them with the run's decisions about override commands.
``codemods.project.section_fates`` runs them while those decisions are still being made, to foresee which sections
keep legacy keys (a command must not set a key over one a config keeps). One function serves both, so that the
foresight and the run agree: otherwise a second run would decide differently from the first.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from codemods.project.index import STRATEGY_PLUGIN, ProjectIndex, Schema, Use, describe
from codemods.project.moved_stores import store_moves
from codemods.project.schema_plans import migrated_schema, schema_facts
from codemods.project.use_kinds import drops_read
from legacy_api.removed_arguments import refused_at

if TYPE_CHECKING:
    from codemods.plan.model import Value

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
#: Keys whose 2.x meaning differs from 1.5's: ``accelerator`` held the strategy in 1.5 (``ddp``), the device in 2.x.
_REPURPOSED = frozenset({"accelerator"})
_INT_ANNOTATIONS = re.compile(r"^(?:int|Optional\[int\]|int \| None|None \| int)$")
_USED = " is still used in "


def changed_keys(before: Sequence[tuple[str, Value]], after: Sequence[tuple[str, Value]]) -> list[str]:
    """The keys of ``before`` whose value the plan moved, dropped or replaced."""
    new = dict(after)
    return sorted(key for key, value in before if new.get(key) is not value)


def _schemas(index: ProjectIndex, keys: Sequence[str], target: tuple[int, ...]) -> list[Schema]:
    """The schemas that describe this section: those naming any of its keys, as this run leaves them (a class that
    mirrors the Trainer migrates with the configs: ``codemods.project.schema_plans``)."""
    wanted = set(keys)
    facts = schema_facts(index)
    # chosen by the fields it will have: a second run, which meets the migrated class, chooses the same
    schemas = [migrated_schema(schema, target, facts) for schema in index.schemas]
    return [schema for schema in schemas if wanted & {name for name, _ in schema.fields}]


def unfit(
    index: ProjectIndex, keys: Iterable[str], added: Sequence[str], target: tuple[int, ...]
) -> list[tuple[str, Schema]]:
    """Each key of ``added`` that a schema describing a section of ``keys`` has no field for (with the schema): the
    guard then holds the whole section, whatever the project's commands do."""
    schemas = _schemas(index, sorted(keys), target)
    return [(key, schema) for key in added for schema in schemas if schema.annotation(key) is None]


def reasons(
    index: ProjectIndex,
    path: str,
    section: str,
    before: Sequence[tuple[str, Value]],
    after: Sequence[tuple[str, Value]],
    present: Sequence[str],
    migrates: Callable[[Use], bool],
    target: tuple[int, ...],
) -> list[str]:
    """Why the planned rewrite of section ``section`` (dotted path) in ``path`` must not be applied (see
    ``codemods.project.decisions``); ``migrates``: whether an override use is rewritten together with the key;
    ``target``: the Lightning release the run migrates to."""
    old, new = dict(before), dict(after)
    name = section.rpartition(".")[2] or "trainer"
    found: list[str] = []
    for key in changed_keys(before, after):
        uses = index.uses_of(f"{name}.{key}", outside=path, reaching=path)
        # a store rewritten in this run moves with the key (codemods.project.moved_stores)
        uses = [use for use in uses if not store_moves(use, index, target)]
        if key in new:  # the key stays with another value: an override string still sets it, a read sees it
            # (a store overwrites it and reads nothing back, unless the key now means something else)
            uses = [use for use in uses if use.kind != "override" and (not use.stored or key in _REPURPOSED)]
        elif refused_at(key, target):
            # A command that sets an argument the target's Trainer refuses fails there whether or not the config
            # keeps the key (which would make every other run fail too): it does not hold the key back. It is
            # reported where it is written (codemods.frontends.commands).
            uses = [use for use in uses if use.kind != "override"]
        # an override command rewritten in this run migrates with the key; one left as it is still holds it
        uses = [use for use in uses if not migrates(use)]
        # and a read the Python side drops in this run (auto_lr_find=cfg.trainer.auto_lr_find) goes with it
        uses = [use for use in uses if not drops_read(use, index)]
        if uses:
            found.append(f"{name}.{key}{_USED}{describe(uses, index.root)}: migrate those uses together with this key")
    added = sorted(key for key in new if key not in old)
    schemas = _schemas(index, sorted({*old, *present}), target)
    for key, schema in unfit(index, {*old, *present}, added, target):
        found.append(f"{name}.{key} is not a field of {schema.name} ({index.where(schema.path)})")
    for key in added:
        clashes: list[str] = []
        for splat in index.splats_of(section, reaching=path):
            passed = {*splat.keywords, *(new_key for k in splat.keywords for new_key in _BECOMES.get(k, ()))}
            duplicate = key in passed and splat.kind == "call"
            if duplicate or (key == "strategy" and _STRATEGY_FLAGS & passed):
                clashes.append(index.where(splat.path))
        if clashes:
            # one reason a key, naming at most three places (issue 26: "then and N more")
            places = list(dict.fromkeys(clashes))
            where = ", ".join(places[:3]) + (f" and {len(places) - 3} more" if len(places) > 3 else "")
            found.append(f"{name}.{key} would clash with the flags passed next to {name} at {where}")
    if "strategy" in added:
        # the strategy plugin configs a command line of the project composes into any Trainer section
        # (+trainer/plugins=deepspeed); one its own defaults list composes drops the strategy name instead
        picked = [fact[len("picks-group:") :] for fact in index.facts if fact.startswith("picks-group:")]
        plugins = [
            use
            for use in index.uses
            if use.key == STRATEGY_PLUGIN
            and any(os.path.dirname(os.path.normpath(use.path)).endswith(os.path.normpath(group)) for group in picked)
        ]
        if plugins:
            found.append(
                f"{name}.strategy would make a second strategy next to the strategy plugin in "
                f"{describe(plugins, index.root)} (a command line composes it into the trainer): keep one"
            )
    for key, value in sorted(new.items()):
        if old.get(key) is value or not isinstance(value.lit, str):
            continue
        for schema in schemas:
            annotation = schema.annotation(key)
            if annotation is not None and _INT_ANNOTATIONS.match(annotation):
                found.append(f"{name}.{key}={value.lit} does not fit {schema.name}.{key}: {annotation}")
    return sorted(dict.fromkeys(found))


def blocked_keys(message: str) -> list[str]:
    """The dotted keys a guard message says are still used elsewhere (for TODOs at those uses)."""
    return [part.split(_USED, 1)[0].strip() for part in message.split("; ") if _USED in part]
