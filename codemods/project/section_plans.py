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
from codemods.project.index import ProjectIndex
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
    if not isinstance(index, ProjectIndex) or not index.splats:
        return False
    return index.strategy_beside(section, path, STRATEGY_CLASSES | options.local_strategies)


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
    items: Sequence[tuple[str, Value]], options: Options, section: SectionKeys, index: ProjectIndex, held: bool
) -> Plan:
    """The flag rules' plan for ``items`` of ``section`` (``held``: some of its keys are kept out of the plan)."""
    plan = Plan(
        list(items),
        options.target_tuple,
        PL,
        options.enabled,
        opaque_rest=held,
        composed=section.composed or composed_into(index, section.path, (key for key, _ in section.items)),
        origin={key: "explicit" for key, _ in items},
        written_in="yaml",
        untuned=never_tunes(index),
        strategy_beside=strategy_beside(options, "trainer", section.path),
    )
    run_flag_rules(plan)
    return plan


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
