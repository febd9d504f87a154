"""What becomes of each Trainer section of the project in this run, foreseen from the project index.

An override command applies on top of whichever config the script composes, and the index cannot tell which,
so a command may only set a key that no section keeps in a legacy form after this run: ``trainer.gpus=1 ->
trainer.accelerator=gpu trainer.devices=1`` next to a held ``accelerator: ddp`` would override DDP away, where
1.5 ran DDP on one GPU. This module foresees, for a given set of migrating commands, what the YAML front end will
do with each indexed section: plan it with the same rules, check it with the project guard (``codemods.project.guard``),
and keep the used keys out of the plan where the front end does.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from codemods.plan.model import Plan
from codemods.project.command_fills import fails_anyway
from codemods.project.guard import blocked_keys, changed_keys, reasons
from codemods.project.moved_reads import moves_with_key
from codemods.project.section_plans import plan_section, section_values

if TYPE_CHECKING:
    from codemods.model import Options
    from codemods.project.index import ProjectIndex, SectionKeys, Use


@dataclass(frozen=True)
class Fate:
    """One section once the run is over: its keys (``after``) and those it keeps in a legacy form (``legacy``:
    held because something elsewhere uses them, left as they are because the guard refused the rewrite, or left
    with a rule's TODO)."""

    section: SectionKeys
    after: frozenset[str]
    legacy: frozenset[str]


def _todo_keys(plan: Plan, keys: Sequence[str]) -> set[str]:
    """The section's keys a rule's TODO names: they stay as they are."""
    messages = [note.message for note in plan.notes if note.todo]
    return {key for key in keys if any(re.search(rf"\b{re.escape(key)}\b", message) for message in messages)}


def fate(index: ProjectIndex, options: Options, section: SectionKeys, migrates: Callable[[Use], bool]) -> Fate:
    """What the YAML front end (``codemods.frontends.yaml.pipeline``) does with ``section``, given which override uses
    migrate: the same plan, the same guard, the same retry with the used keys held."""
    items = section_values(section)
    written = [key for key, _ in items]
    before = frozenset(written)
    plan = plan_section(items, options, section, index)
    todo = _todo_keys(plan, written)
    if [(k, id(v)) for k, v in items] == [(k, id(v)) for k, v in plan.items]:
        return Fate(section, before, frozenset(todo))
    refused = reasons(index, section.path, "trainer", items, plan.items, written, migrates, options.target_tuple)
    if not refused:
        return Fate(section, frozenset(plan.keys()), frozenset(todo))
    everything = frozenset(changed_keys(items, plan.items)) | todo
    used = {key.partition(".")[2] for reason in refused for key in blocked_keys(reason) if key.startswith("trainer.")}
    if not used or len(used) != len(refused) or len(used) >= len(items):
        return Fate(section, before, everything)
    rest = section_values(section, before - used)
    partial = plan_section(rest, options, section, index, frozenset(used))
    if [(k, id(v)) for k, v in rest] != [(k, id(v)) for k, v in partial.items] and reasons(
        index, section.path, "trainer", rest, partial.items, written, migrates, options.target_tuple
    ):
        return Fate(section, before, everything)
    return Fate(section, frozenset(partial.keys()) | used, frozenset(used | _todo_keys(partial, written)))


def fates(
    index: ProjectIndex,
    options: Options,
    migrating: dict[tuple[tuple[str, str, str, str], ...], set[str]],
    failing: frozenset[tuple[tuple[str, str, str, str], ...]] = frozenset(),
) -> list[Fate]:
    """Every indexed section's fate when exactly the commands ``migrating`` are rewritten, each with the keys it
    changes (``trainer.gpus``: a token it leaves as written, ``+trainer.strategy=ddp``, is a use that stays);
    ``failing``: commands left with their own TODO, whose tokens that fail on the target anyway hold nothing, as
    the guard decides."""

    def migrates(use: Use) -> bool:
        if use.kind == "override" and use.command in failing:
            key = use.key.partition(".")[2]
            if any(item[2] == key and fails_anyway(item) for item in use.command):
                return True
        changes = migrating.get(use.command) if use.kind == "override" else None
        return (changes is not None and use.key in changes) or moves_with_key(use, index, options)

    return [fate(index, options, section, migrates) for section in index.sections]
