"""Config stores that move with their key: ``cfg.trainer.gpus = 1`` -> ``cfg.trainer.accelerator = "gpu"`` and
``cfg.trainer.devices = 1`` (issue 26, item 2).

A store into a config's Trainer section overwrites what the config holds, so it reads nothing back: once the configs
migrate, the store is exact when it writes the new keys the same value makes in a config (the YAML front end's own
translation, :data:`STORES`). It must not be mixed with reads of the old key, which would see the config's value
where they saw the store's, so the decision is made per key for the whole project: the stores of a key move where
every store of it moves and every other use of it is a command line (a command that stays fails loudly on the
target, which refuses the key, or is left with its own TODO) or a read in code that loads the configs it reads
(``@hydra.main(config_path=...)``: it never sees the stored object, and holds those configs itself). No structured-
config schema may be left unable to take what they write (the store may go into a dataclass, whose ``asdict`` would
drop an attribute that is no field of it): a class that mirrors the Trainer migrates with the configs
(``codemods.project.schema_plans``) and then has the new keys. ``gpus = 0`` (the CPU) moves only where no config
sets another device flag, which 1.5 would have used instead. From 2.0 on, where the old keys are refused; before,
the guard holds as it did.

The rule ``config_stores`` rewrites the stores; the project guard and the command plans count them as migrating.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from codemods.project.store_values import CPU, translate
from legacy_api.removed_arguments import refused_at
from legacy_api.renames import DEVICE_FLAGS

if TYPE_CHECKING:
    from codemods.plan.schema_model import SchemaFacts
    from codemods.project.index import ProjectIndex, Schema, Use

#: Device flags that would have decided the device where ``gpus`` stored 0 (1.6's ``hpus`` too), and the
#: accelerators they become once migrated.
_OTHER_DEVICES = (frozenset(DEVICE_FLAGS) - {"gpus"}) | {"hpus"}
_OTHER_ACCELERATORS = frozenset(DEVICE_FLAGS[flag] for flag in DEVICE_FLAGS if flag != "gpus") | {"hpu"}


def _other_device(name: str, text: str) -> bool:
    """A config key that chose the device where ``gpus`` stored 0, before or after its migration (a second run must
    decide as the first: ``tpu_cores: 8`` is ``accelerator: tpu`` then)."""
    value = text.strip().strip("\"'").lower()
    return name in _OTHER_DEVICES or (name == "accelerator" and value in _OTHER_ACCELERATORS)


def _moves(use: Use) -> bool:
    return bool(use.stored) and translate(use.key.partition(".")[2], use.stored) is not None


def _unfit(schema: Schema, key: str, uses: list[Use], target: tuple[int, ...], facts: SchemaFacts) -> bool:
    """Whether the stores of ``key`` may go into a config ``schema`` shapes that cannot take what they become: the
    class, as this run leaves it (``codemods.project.schema_plans``), still has the refused key as a field, or lacks
    a key the stores write."""
    from codemods.project.schema_plans import migrated_schema  # (it loads the rules: only where a schema is)

    fields = {name for name, _ in migrated_schema(schema, target, facts).fields}
    if key in fields and refused_at(key, target):
        return True
    written = {new for use in uses if use.stored for new, _ in translate(key, use.stored) or ()}
    return not written <= fields


def _facts(index: ProjectIndex) -> SchemaFacts:
    from codemods.project.schema_plans import schema_facts

    return schema_facts(index)


def moved_store_keys(index: ProjectIndex, target: tuple[int, ...]) -> frozenset[str]:
    """The Trainer keys whose stores move in this run (memoised on the index per target)."""
    if target < (2, 0):
        return frozenset()
    memo_key = ("moved_stores", target)
    cached = index.memo.get(memo_key)
    if isinstance(cached, frozenset):
        return cached
    stored = {use.key.partition(".")[2] for use in index.uses if use.stored and use.key.startswith("trainer.")}
    found = set()
    for key in sorted(stored):
        uses = index.uses_of(f"trainer.{key}")
        # a read that may be handed the stored config would see the store's value, which the new keys no longer
        # hold; a read in a file that loads the configs it reads (@hydra.main) sees those, and holds them itself
        if not all(_moves(use) or use.kind == "override" or index.loads_own(use.path) for use in uses):
            continue
        if any(use.stored and not _moves(use) for use in uses):
            continue
        if index.schemas and any(_unfit(schema, key, uses, target, _facts(index)) for schema in index.schemas):
            continue  # a typed config (a dataclass mirroring the Trainer) may be what is stored into: asdict() drops
            # an attribute that is no field of it, so the new keys would be lost without a word
        zero = any(use.stored and translate(key, use.stored) == CPU for use in uses)
        if zero and any(_other_device(name, text) for section in index.sections for name, text in section.items):
            continue
        found.add(key)
    result = frozenset(found)
    index.memo[memo_key] = result
    return result


def mentions_store(text: str, keys: frozenset[str]) -> bool:
    """Whether ``text`` may store one of ``keys`` into a config (the rule ``config_stores`` then has work there)."""
    return bool(keys) and "trainer" in text and any(f".{key}" in text for key in keys)


def store_moves(use: Use, index: ProjectIndex, target: tuple[int, ...]) -> bool:
    """Whether ``use`` is a store the rule ``config_stores`` rewrites in this run (it then holds nothing back)."""
    return bool(use.stored) and use.key.partition(".")[2] in moved_store_keys(index, target) and _moves(use)
