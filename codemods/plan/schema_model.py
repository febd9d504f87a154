"""What becomes of a class that mirrors the Trainer's arguments (``codemods.project.schema_plans`` decides it, rule
``schema_fields`` writes it): a plain record, so that the rule needs none of the planning."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: The field keeps its own default's text.
KEEP: object = object()


@dataclass(frozen=True)
class SchemaFacts:
    """What the project says about the keys of its Trainer-mirroring classes (``codemods.project.schema_plans``)."""

    #: Removed arguments the code reads or stores as config keys: their fields stay, with their TODOs.
    used: frozenset[str] = frozenset()
    #: Keys some config sets to a value the migration spells as a string (``precision: 16`` -> ``16-mixed``).
    strings: frozenset[str] = frozenset()


@dataclass(frozen=True)
class SchemaPlan:
    """What becomes of each field of a Trainer-mirroring class: the fields in their new order, each as (name, the
    field it was or None for a new one, its new default's literal or the original field's own text)."""

    fields: tuple[tuple[str, str | None, object], ...]
    #: Refused fields the plan left (with a TODO): they stay as they are.
    held: tuple[str, ...]
    #: What the plan's TODOs say of each held field (``weights_summary='full' (gone in 1.7): pass ...``).
    todos: tuple[tuple[str, str], ...] = ()
    #: The plan's reports (rule, message): what the target selects otherwise, as for a config section.
    reports: tuple[tuple[str, str], ...] = ()
    #: Fields whose migrated configs hold strings where 1.5's held ints (``precision: 16`` -> ``"16-mixed"``).
    strings: frozenset[str] = frozenset()
    #: The class changes in this run (False: only fields left with their TODOs, which a second run finds again).
    moved: bool = True

    def changed(self, original: Sequence[tuple[str, str]]) -> bool:
        return [(name, old) for name, old, _ in self.fields] != [(name, name) for name, _ in original] or any(
            value is not KEEP for _, _, value in self.fields
        )


#: Annotations of a ``precision`` field that 2.x's spellings (``"16-mixed"``) do not fit.
_INT_ONLY = frozenset({"int", "Optional[int]", "int | None", "None | int"})


def widened(plan: SchemaPlan, name: str, annotation: str) -> str | None:
    """The annotation a migrated class gives field ``name`` instead of ``annotation``: ``precision: int`` takes
    ``Any`` where a config built on it sets 1.5's ``16``, which the migration spells ``"16-mixed"`` (2.x's Trainer
    takes both; OmegaConf's structured configs know no ``Union``). None: it stays."""
    return "Any" if name in plan.strings and annotation.strip() in _INT_ONLY else None
