"""Config keys whose Python reads move with them in one run: ``cfg.trainer.gpus`` -> ``cfg.trainer.devices``.

The YAML front end turns ``gpus: 8`` into ``accelerator: gpu`` and ``devices: 8``; a read of ``cfg.trainer.gpus``
elsewhere would then find nothing, so the project guard holds such a key with a TODO in every config. Where the
new key carries, in every config that sets the old one, the very value the old one held, the reads move instead:
``cfg.trainer.devices`` then reads what ``cfg.trainer.gpus`` read. That is decided once for the whole project:

* every use of the key is a read spelled with attributes (``cfg.trainer.gpus``; no store, no ``get("gpus")``,
  no override string or interpolation, which name the key as text), and the index saw every file that may use
  it (``codemods.project.facts.unindexed``: a notebook, a doc, a config outside a recorded Trainer section);
* no structured-config schema names the old or the new key, and no config sets the new key already (a read would
  find that value where it found nothing before);
* every config section that sets the key migrates as a whole in this run (the project guard has nothing else
  against it), and its new key has the value the old one had, of the same type: ``gpus: 8`` -> ``devices: 8``,
  ``gpus: [0, 1]`` -> ``devices: [0, 1]``; never ``gpus: 0`` -> ``accelerator: cpu, devices: 1``.

The Python rule ``config_reads`` renames the reads; ``codemods.project.decisions`` and
``codemods.project.section_fates`` count them as migrating with the key, so the configs migrate.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from codemods.project.command_syntax import read_value
from codemods.project.guard import reasons
from codemods.project.index import ProjectIndex, Use, movable_read
from codemods.project.keys import MOVES, UNSET_READS
from codemods.project.section_plans import plan_section, section_values
from legacy_api.removed_arguments import refused_at

if TYPE_CHECKING:
    from codemods.model import Options


def _same(a: object, b: object) -> bool:
    return type(a) is type(b) and a == b


def _keeps_value(use: Use, old: str, options: Options) -> bool:
    """An override command (``trainer.gpus=2`` in a script or a docstring) that cannot change what a moved read
    finds: the target refuses the key, so the command either migrates with its value under the new key
    (``trainer.devices=2``: a non-zero count) or stays as it is and fails loudly there, with its own TODO.
    ``gpus=0`` becomes ``accelerator=cpu devices=1``, where a moved read would find 1: it holds the reads."""
    if use.kind != "override" or not use.command or not refused_at(old, options.target_tuple):
        return False
    values = [value for _style, _prefix, key, value in use.command if key == old]
    return bool(values) and all(type(read_value(value)) is int and read_value(value) != 0 for value in values)


def _movable(index: ProjectIndex, options: Options, old: str, new: str) -> bool:
    key = f"trainer.{old}"
    uses = index.uses_of(key)
    if not any(movable_read(use) for use in uses) or not all(
        movable_read(use) or _keeps_value(use, old, options) for use in uses
    ):
        return False
    if f"unindexed:{old}" in index.facts or index.uses_of(f"trainer.{new}"):
        return False
    if any(name in (old, new) for schema in index.schemas for name, _ in schema.fields):
        return False
    holding = [section for section in index.sections if any(name == old for name, _ in section.items)]
    if not holding or any(name == new for section in index.sections for name, _ in section.items):
        return False

    def moves(use: Use) -> bool:
        return use.key == key

    for section in holding:
        items = section_values(section)
        plan = plan_section(items, options, section, index, False)
        before, after = dict(items), dict(plan.items)
        value = after.get(new)
        if old in after or value is None or not before[old].known or not _same(value.lit, before[old].lit):
            return False
        written = [name for name, _ in items]
        if reasons(index, section.path, "trainer", items, plan.items, written, moves, options.target_tuple):
            return False
    return True


def moved_keys(index: object, options: Options) -> frozenset[str]:
    """The :data:`MOVES` keys whose reads move with them in this run (none without a project index)."""
    if not isinstance(index, ProjectIndex) or not index.uses:
        return frozenset()
    memo_key = ("moved_reads", options.target, options.rules)
    cached = index.memo.get(memo_key)
    if isinstance(cached, frozenset):
        return cached
    found = frozenset(old for old, new in MOVES.items() if _movable(index, options, old, new))
    index.memo[memo_key] = found
    return found


def moves_with_key(use: Use, index: ProjectIndex, options: Options) -> bool:
    """Whether ``use`` is a read the rule ``config_reads`` rewrites in this run (it then holds nothing back)."""
    return movable_read(use) and use.key.partition(".")[2] in moved_keys(index, options)


def unset_keys(index: object, options: Options) -> frozenset[str]:
    """The :data:`UNSET_READS` keys that Python reads (``lightning_config.trainer.gpus``) and nothing else in the
    project sets or names: no config section or schema holds them, no code stores them, no override string
    passes them, and their reads do not move (:func:`moved_keys`). What such a read finds comes from outside the
    files given (latent-diffusion's ``--gpus 0,`` reaches ``lightning_config.trainer`` through argparse), so no
    TODO of the configs' covers it: rule ``config_reads`` writes one above it. Only where the target refuses the
    flag (2.0; ``distributed_backend`` 1.5)."""
    if not isinstance(index, ProjectIndex) or not index.uses:
        return frozenset()
    moved = moved_keys(index, options)
    found = set()
    for old in UNSET_READS:
        if old in moved or options.target_tuple < ((1, 5) if old == "distributed_backend" else (2, 0)):
            continue
        uses = index.uses_of(f"trainer.{old}")
        if not uses or not all(use.kind == "read" and use.attribute for use in uses):
            continue
        if f"configured:{old}" in index.facts:
            continue
        if any(name == old for section in index.sections for name, _ in section.items):
            continue
        if not any(name == old for schema in index.schemas for name, _ in schema.fields):
            found.add(old)
    return frozenset(found)
