"""Config keys whose Python reads move with them in one run: ``cfg.trainer.gpus`` -> ``cfg.trainer.devices``.

The YAML front end turns ``gpus: 8`` into ``accelerator: gpu`` and ``devices: 8``; a read of ``cfg.trainer.gpus``
elsewhere would then find nothing, so the project guard holds such a key with a TODO in every config. Where the
new key carries, in every config that sets the old one, the very value the old one held, the reads move instead:
``cfg.trainer.devices`` then reads what ``cfg.trainer.gpus`` read. That is decided once for the whole project:

* every use of the key is a read spelled with attributes (``cfg.trainer.gpus``; no ``get("gpus")``, no
  interpolation, which name the key as text), a command line that sets an int, or a store of an int (rule
  ``config_stores`` moves it), and the index saw every file that may use it (``codemods.project.facts.unindexed``:
  a notebook, a doc, a config outside a recorded Trainer section);
* no structured-config schema names the old or the new key, and no config sets the new key already (a read would
  find that value where it found nothing before);
* every config section that sets the key migrates as a whole in this run (the project guard has nothing else
  against it), and its new key has the value the old one had, of the same type, with ``accelerator: gpu``:
  ``gpus: 8`` -> ``devices: 8``, ``gpus: [0, 1]`` -> ``devices: [0, 1]``. Where a config, a command or a store
  gives 0 (``accelerator: cpu, devices: 1``), the reads become ``codemods.project.store_values.gpus_read``
  instead (``(cfg.trainer.devices if cfg.trainer.accelerator == "gpu" else 0)``), which reads 0 there.

The Python rule ``config_reads`` renames the reads; ``codemods.project.decisions`` and
``codemods.project.section_fates`` count them as migrating with the key, so the configs migrate.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from codemods.project.command_syntax import read_value
from codemods.project.guard import reasons
from codemods.project.index import ProjectIndex, Use, movable_read
from codemods.project.keys import MOVES, UNSET_READS
from codemods.project.schema_plans import migrated_schema, schema_facts
from codemods.project.section_plans import plan_section, section_values
from codemods.project.store_values import CPU, translate
from legacy_api.removed_arguments import refused_at

if TYPE_CHECKING:
    from codemods.model import Options


def _same(a: object, b: object) -> bool:
    return type(a) is type(b) and a == b


def _override_values(use: Use, old: str, options: Options) -> list[object] | None:
    """The values an override command (``trainer.gpus=2`` in a script or a docstring) gives ``old``, where each is an
    int: the target refuses the key, so the command either migrates with its value under the new keys
    (``trainer.accelerator=gpu trainer.devices=2``; ``gpus=0``: ``accelerator=cpu devices=1``) or stays as it is and
    fails loudly there, with its own TODO. A list of GPU indices reads the same list under ``devices``; ``[]`` chose
    the CPU, as 0 did (it reads 0); a value the tool cannot read (``trainer.gpus=$GPUS``) stays with its TODO and
    fails loudly until a person rewrites it, perhaps to the CPU: it counts as a possible 0. None where ``use`` is no
    such command."""
    if use.kind != "override" or not use.command or not refused_at(old, options.target_tuple):
        return None
    values: list[object] = []
    for _style, _prefix, key, text in use.command:
        value = read_value(text) if key == old else None
        if type(value) is int:
            values.append(value)
        elif isinstance(value, list) and all(type(item) is int for item in value):
            values.append(value or 0)
        elif key == old:
            values.append(0)  # whatever the shell or a person puts there may be 0: the reads must read that too
    return values


def _schema_read(index: ProjectIndex, uses: list[Use], options: Options, old: str, new: str) -> bool:
    """Whether a read of ``old`` may meet a config a structured schema shapes, which names ``old`` or ``new``: the
    read would then see the class's default where the configs set nothing, which is another value under the new
    key. A read in code that sees only the YAML configs it loads by name meets no schema
    (:meth:`codemods.project.index.ProjectIndex.schema_free`)."""
    target = options.target_tuple
    named = [
        schema
        for schema in index.schemas
        if any(
            name in (old, new)
            for name, _ in (*schema.fields, *migrated_schema(schema, target, schema_facts(index)).fields)
        )
    ]
    # (a store writes the config and reads nothing back: codemods.project.moved_stores checks the class can take it)
    return bool(named) and any(movable_read(use) and not use.stored and not index.schema_free(use.path) for use in uses)


def _mode(index: ProjectIndex, options: Options, old: str, new: str) -> str | None:
    """How the reads of ``old`` move: ``rename`` (``cfg.trainer.devices`` reads the very value), ``expression``
    (some config, command or store gives 0, which becomes ``accelerator: cpu``, ``devices: 1``: the read becomes
    ``store_values.gpus_read``), or None (they stay, and hold the configs)."""
    key = f"trainer.{old}"
    uses = index.uses_of(key)
    if not any(movable_read(use) for use in uses):
        return None
    zero = False
    for use in uses:
        if movable_read(use):
            continue
        values = _override_values(use, old, options)
        stored = translate(old, use.stored) if use.stored else None
        if values is not None:
            zero = zero or 0 in values
        elif stored is not None:
            zero = zero or stored == CPU
        else:
            return None
    if f"unindexed:{old}" in index.facts or index.uses_of(f"trainer.{new}"):
        return None
    if _schema_read(index, uses, options, old, new):
        return None
    holding = [section for section in index.sections if any(name == old for name, _ in section.items)]
    if not holding or any(name == new for section in index.sections for name, _ in section.items):
        return None

    def moves(use: Use) -> bool:
        return use.key == key

    for section in holding:
        items = section_values(section)
        plan = plan_section(items, options, section, index, False)
        before, after = dict(items), dict(plan.items)
        value, accelerator = after.get(new), after.get("accelerator")
        if old in after or value is None or not before[old].known or accelerator is None:
            return None
        if _same(before[old].lit, 0) and _same(accelerator.lit, "cpu") and _same(value.lit, 1):
            zero = True
        elif not (_same(value.lit, before[old].lit) and _same(accelerator.lit, "gpu")):
            return None
        written = [name for name, _ in items]
        if reasons(index, section.path, "trainer", items, plan.items, written, moves, options.target_tuple):
            return None
    return "expression" if zero else "rename"


def _modes(index: ProjectIndex, options: Options) -> dict[str, str]:
    memo_key = ("moved_reads", options.target, options.rules)
    cached = index.memo.get(memo_key)
    if isinstance(cached, dict):
        return cached
    found: dict[str, str] = {}
    for old, new in MOVES.items():
        mode = _mode(index, options, old, new)
        if mode is not None:
            found[old] = mode
    index.memo[memo_key] = found
    return found


def moved_keys(index: object, options: Options) -> frozenset[str]:
    """The :data:`MOVES` keys whose reads move with them in this run (none without a project index)."""
    if not isinstance(index, ProjectIndex) or not index.uses:
        return frozenset()
    return frozenset(_modes(index, options))


def expression_keys(index: object, options: Options) -> frozenset[str]:
    """Those of :func:`moved_keys` whose reads become ``codemods.project.store_values.gpus_read`` (some value
    was 0)."""
    if not isinstance(index, ProjectIndex) or not index.uses:
        return frozenset()
    return frozenset(key for key, mode in _modes(index, options).items() if mode == "expression")


def moves_with_key(use: Use, index: ProjectIndex, options: Options) -> bool:
    """Whether ``use`` is a read the rule ``config_reads`` rewrites in this run, or a store of such a key that the
    rule ``config_stores`` rewrites (it then holds nothing back)."""
    name = use.key.partition(".")[2]
    if use.stored:
        return name in moved_keys(index, options) and translate(name, use.stored) is not None
    return movable_read(use) and name in moved_keys(index, options)


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
