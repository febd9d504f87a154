"""A config's Trainer section planned from the project index alone, as the YAML front end will plan it.

``codemods.project.section_fates`` and ``codemods.project.moved_reads`` foresee what the run does to each indexed
section before any file is rewritten: the index holds the section's keys and their values as written, and the same
flag rules run on them.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from codemods.plan.apply_rules import run_flag_rules
from codemods.plan.model import UNKNOWN, Plan, Value
from codemods.project.command_syntax import Opaque, read_value
from codemods.project.index import STRATEGY_PLUGIN, ProjectIndex
from codemods.project.keys import never_tunes
from legacy_api.renames import PL, STRATEGY_CLASSES, STRATEGY_NAMES

if TYPE_CHECKING:
    from codemods.model import Options
    from codemods.project.index import SectionKeys


def section_values(section: SectionKeys, keys: frozenset[str] | None = None) -> list[tuple[str, Value]]:
    """The section's keys (those of ``keys``, if given) with their values read as the YAML front end reads them."""
    out = []
    for key, text in section.items:
        if keys is None or key in keys:
            lit = read_value(text) if text else UNKNOWN
            out.append((key, Value(node=text, lit=UNKNOWN if isinstance(lit, Opaque) else lit, source=text)))
    return out


def strategy_beside(options: Options, section: str, path: str) -> bool:
    """Whether every call that takes the Trainer section ``section`` of the config ``path`` passes a strategy object
    next to it (:meth:`codemods.project.index.ProjectIndex.strategy_beside`)."""
    index = options.project
    if not isinstance(index, ProjectIndex):
        return False
    if index.splats and index.strategy_beside(section, path, STRATEGY_CLASSES | options.local_strategies):
        return True
    return bool(composed_strategies(index, path))


def composed_strategies(index: ProjectIndex, path: str) -> list[str]:
    """The strategy plugin configs the defaults list of the config ``path`` composes into it (``- plugins:
    deepspeed`` in a ``trainer/`` group file, whose ``plugins/deepspeed.yaml`` is ``_target_: ...DeepSpeedPlugin``):
    1.5 ran that object, and a strategy name beside it (``accelerator: ddp``) did nothing."""
    prefix = f"composes-from:{os.path.normpath(path)}>"
    chosen = {os.path.normpath(fact[len(prefix) :]) for fact in index.facts if fact.startswith(prefix)}
    if not chosen:
        return []
    return [
        use.path
        for use in index.uses
        if use.key == STRATEGY_PLUGIN and os.path.splitext(os.path.normpath(use.path))[0] in chosen
    ]


#: Keys that name the devices: a section that sets one chose them itself, whatever it is composed with.
_DEVICE_KEYS = frozenset({"gpus", "tpu_cores", "ipus", "hpus", "num_processes", "devices"})


def composed_into(index: object, path: str, keys: Iterable[str]) -> bool:
    """Whether some config's ``defaults:`` list composes the config file ``path`` into it (``- base``, or the group
    ``- config: override_base`` whose folder holds it) and its Trainer section (``keys``) names no device: the
    devices then come from the configs it is composed with, as for a config with a ``defaults:`` list of its own
    (``codemods.project.scan_yaml.composes_facts``)."""
    if not isinstance(index, ProjectIndex) or _DEVICE_KEYS & set(keys):
        return False
    stem = os.path.splitext(os.path.normpath(path))[0]
    for fact in index.facts:
        if fact.startswith("composes:"):
            place = fact[len("composes:") :]
            if stem == place or (place.endswith("/") and stem.startswith(place)):
                return True
    return False


def plan_section(
    items: Sequence[tuple[str, Value]],
    options: Options,
    section: SectionKeys,
    index: ProjectIndex,
    held: frozenset[str] = frozenset(),
) -> Plan:
    """The flag rules' plan for ``items`` of ``section`` (``held``: its keys kept out of the plan, as written)."""
    plan = Plan(
        list(items),
        options.target_tuple,
        PL,
        options.enabled,
        opaque_rest=bool(held),
        held=held,
        composed=section.composed or composed_into(index, section.path, (key for key, _ in section.items)),
        origin={key: "explicit" for key, _ in items},
        written_in="yaml",
        untuned=never_tunes(index),
        strategy_beside=strategy_beside(options, "trainer", section.path),
    )
    run_flag_rules(plan)
    composed_strategy_todo(plan, index, section.path)
    return plan


def composed_strategy_todo(plan: Plan, index: object, path: str) -> None:
    """A TODO in ``plan`` (the config ``path``'s section) where its defaults list composes a strategy plugin config
    into ``plugins`` (:func:`composed_strategies`): 2.x takes no strategy in ``plugins=`` (2.6.6 raises "Found
    invalid type for plugin"), so the group must be composed as the strategy; where it sits is the project's call."""
    found = composed_strategies(index, path) if isinstance(index, ProjectIndex) and plan.target >= (2, 0) else []
    if found:
        names = ", ".join(sorted(os.path.basename(item) for item in found))
        plan.todo(
            "strategy_plugins",
            f"the defaults list composes the strategy {names} into trainer.plugins, which Lightning 2.x refuses for a "
            "strategy: compose it as the strategy instead (Hydra >= 1.1: `- plugins@strategy: <option>`)",
        )


def config_sets_strategy(options: Options, path: str) -> bool:
    """Whether a Trainer section the code in ``path`` may load sets a strategy once migrated: ``strategy:``, or a
    strategy name in ``accelerator:``/``distributed_backend:`` that becomes one (unless every call beside it
    passes a strategy object: :func:`strategy_beside`). A ``strategy=`` the Python rules would add next to
    ``**cfg.trainer`` there is then passed twice."""
    index = options.project
    if not isinstance(index, ProjectIndex):
        return False
    for section in index.sections:
        if not index.reaches(path, section.path):
            continue
        for name, text in section.items:
            value = text.strip().strip("\"'").lower()
            if name == "strategy" and value not in ("", "null", "none", "~", "auto"):
                return True
            named = name in ("accelerator", "distributed_backend") and value in STRATEGY_NAMES
            if named and not strategy_beside(options, "trainer", section.path):
                return True
    return False
