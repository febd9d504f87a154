"""Config keys whose Python reads move with them in one run: ``cfg.trainer.gpus`` -> ``cfg.trainer.devices``.

The YAML front end turns ``gpus: 8`` into ``accelerator: gpu`` and ``devices: 8``; a read of ``cfg.trainer.gpus``
elsewhere would then find nothing, so the project guard holds such a key with a TODO in every config. Where the
new key carries, in every config that sets the old one, the very value the old one held, the reads move instead:
``cfg.trainer.devices`` then reads what ``cfg.trainer.gpus`` read. That is decided once per run, for each group
of reads that may see the same configs (:func:`_components`: an ASR script's reads and the ASR configs it loads,
apart from a TTS script's), where:

* every use of the key that may see those configs is a read spelled with attributes (``cfg.trainer.gpus``; no
  ``get("gpus")``, no interpolation, which name the key as text), a command line that sets an int, or a store of
  an int (rule ``config_stores`` moves it), and the index saw every file that may use it
  (``codemods.project.facts.unindexed``: a notebook, a doc, a config outside a recorded Trainer section);
* no structured-config schema names the old or the new key, and no config the reads may see sets the new key
  already, nor does anything else that may see it (a read would find that value where it found nothing before);
* every config section of the group that sets the key migrates as a whole in this run (the project guard has
  nothing else against it), and its new key has the value the old one had, of the same type, with ``accelerator: gpu``:
  ``gpus: 8`` -> ``devices: 8``, ``gpus: [0, 1]`` -> ``devices: [0, 1]``. Where a config, a command or a store
  gives 0 (``accelerator: cpu, devices: 1``), the reads become ``codemods.project.store_values.gpus_read``
  instead (``(cfg.trainer.devices if cfg.trainer.accelerator == "gpu" else 0)``), which reads 0 there.

The Python rule ``config_reads`` renames the reads; ``codemods.project.decisions`` and
``codemods.project.section_fates`` count them as migrating with the key, so the configs migrate.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from codemods.project.command_syntax import read_value
from codemods.project.guard import blocked_keys, reasons
from codemods.project.index import ProjectIndex, Schema, SectionKeys, Use
from codemods.project.keys import MOVES, UNSET_READS
from codemods.project.moved_stores import store_moves
from codemods.project.scan_yaml import UNREAD
from codemods.project.schema_plans import migrated_schema, plan_schema, schema_facts
from codemods.project.section_plans import plan_section, section_values
from codemods.project.store_values import CPU, translate
from codemods.project.use_kinds import movable_read
from legacy_api.removed_arguments import refused_at
from legacy_api.target_aliases import same_on_target

if TYPE_CHECKING:
    from codemods.model import Options
    from codemods.plan.model import Value
    from codemods.plan.schema_model import SchemaFacts


def _same(a: object, b: object) -> bool:
    return type(a) is type(b) and a == b


def _kept_as_written(reason: str, before: dict[str, Value], after: dict[str, Value], target: tuple[int, ...]) -> bool:
    """Whether ``reason`` (the project guard's) only says that a key the target takes as written is read elsewhere
    (``cfg.trainer.precision == 16``): the YAML front end then keeps that key as it is and migrates the rest of the
    section around it, so it holds back no other key's reads."""
    keys = [key.partition(".")[2] for key in blocked_keys(reason)]
    return bool(keys) and all(
        key in before
        and key in after
        and before[key].known
        and after[key].known
        and same_on_target(key, before[key].lit, after[key].lit, target)
        for key in keys
    )


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


def _schema_read(index: ProjectIndex, uses: list[Use], options: Options, old: str, new: str) -> str | None:
    """Whether a read of ``old`` may meet a config a structured schema shapes, which names ``old`` or ``new``: the
    read would then see the class's default where the configs set nothing, which is another value under the new
    key (``hold``). A read in code that sees only the YAML configs it loads by name meets no schema
    (:meth:`codemods.project.index.ProjectIndex.schema_free`): None. ``expression`` where every read that may meet one
    is zero-safe (``cfg.trainer.gpus > 1``; ``codemods.project.zero_safe``) and each such class's default reads 0 or
    None before (``gpus: Any = None``) and 0 through :func:`codemods.project.store_values.gpus_read` after (its
    migrated ``accelerator`` default is not ``gpu``): the expression then gives what the default gave."""
    target = options.target_tuple
    facts = schema_facts(index)
    named = [
        schema
        for schema in index.schemas
        if any(name in (old, new) for name, _ in (*schema.fields, *migrated_schema(schema, target, facts).fields))
    ]
    # (a store writes the config and reads nothing back: codemods.project.moved_stores checks the class can take it)
    met = [use for use in uses if movable_read(use) and not use.stored and not index.schema_free(use.path)]
    if not named or not met:
        return None
    if all(use.zero_safe for use in met) and all(_default_reads_zero(schema, old, target, facts) for schema in named):
        return "expression"
    return "hold"


def _default_reads_zero(schema: Schema, old: str, target: tuple[int, ...], facts: SchemaFacts) -> bool:
    """Whether a config built on ``schema`` that sets no device reads 0 or None under ``old`` before the run and 0
    through the expression after it (the migrated class's ``accelerator`` default is not ``gpu``)."""
    before = dict(schema.defaults)
    if before.get(old, "None").strip() not in ("None", "0"):
        return False
    plan = plan_schema(schema.defaults, target, facts)
    after = {name: value for name, _, value in plan.fields} if plan is not None else {}
    return after.get("accelerator") != "gpu" and before.get("accelerator", "None").strip() != '"gpu"'


def _components(index: ProjectIndex, uses: list[Use], holding: list[SectionKeys]) -> list[list[int]]:
    """The moving reads of a key grouped by the config sections they may see (the configs a script loads:
    ``ProjectIndex.use_reaches``): two reads that may see one section are in one group; each other use (a command,
    a store) goes with every group whose sections it may see, and holds or moves with each. Indices into ``uses``."""
    reads = [i for i, use in enumerate(uses) if movable_read(use)]
    parent = {i: i for i in reads}

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    seen = {section.path: [i for i in reads if index.use_reaches(uses[i], section.path)] for section in holding}
    for found in seen.values():
        for i in found[1:]:
            parent[root(i)] = root(found[0])
    groups: dict[int, list[int]] = {}
    for i in reads:
        groups.setdefault(root(i), []).append(i)
    out = []
    for members in groups.values():
        sections = [path for path, found in seen.items() if found and root(found[0]) == root(members[0])]
        others = [
            i
            for i, use in enumerate(uses)
            if not movable_read(use) and any(index.use_reaches(use, path) for path in sections)
        ]
        out.append(sorted(members + others))
    return out


def _mode(
    index: ProjectIndex, options: Options, name: str, old: str, new: str, uses: list[Use], whole: bool
) -> str | None:
    """How the reads among ``uses`` of ``<name>.<old>`` (one group of :func:`_components`; ``whole``: every use of
    the key) move:
    ``rename`` (``cfg.trainer.devices`` reads the very value), ``expression`` (some config, command or store gives
    0, which becomes ``accelerator: cpu``, ``devices: 1``: the read becomes ``store_values.gpus_read``), or None
    (they stay, and hold the configs they see)."""
    key = f"{name}.{old}"
    reads = [use for use in uses if movable_read(use)]
    if not reads:
        return None
    zero = False
    for use in uses:
        if movable_read(use):
            continue
        values = _override_values(use, old, options)
        stored = translate(old, use.stored) if use.stored else None
        if stored is not None and not whole and not store_moves(use, index, options.target_tuple):
            return None  # a store this run leaves as it is (the key's other reads stay) would write the old key
        if values is not None:
            zero = zero or 0 in values
        elif stored is not None:
            zero = zero or stored == CPU
        else:
            return None
    # the configs these reads may see: none may set the new key already, nor may anything else set it there
    seen = [s for s in _sections(index, name) if any(index.use_reaches(use, s.path) for use in reads)]
    if any(item == UNREAD for section in seen for item, _ in section.items):
        return None  # a section written as a flow mapping, an anchor or a merge: its values are not read here
    if any(item == new for section in seen for item, _ in section.items):
        return None
    if any(index.use_reaches(use, section.path) for use in index.uses_of(f"{name}.{new}") for section in seen):
        return None
    schema = _schema_read(index, uses, options, old, new)
    if schema == "hold":
        return None
    zero = zero or schema == "expression"
    holding = [section for section in seen if any(item == old for item, _ in section.items)]
    if not holding:
        return None

    def moves(use: Use) -> bool:
        return use.key == key

    for section in holding:
        items = section_values(section)
        plan = plan_section(items, options, section, index)
        before, after = dict(items), dict(plan.items)
        value, accelerator = after.get(new), after.get("accelerator")
        if old in after or value is None or not before[old].known or accelerator is None:
            return None
        cpu = _same(accelerator.lit, "cpu") and _same(value.lit, 1)
        if cpu and (_same(before[old].lit, 0) or (before[old].lit is None and all(use.zero_safe for use in reads))):
            zero = True  # gpus: null chose the CPU too: it reads 0 now, the same where None and 0 are (zero_safe)
        elif not (_same(value.lit, before[old].lit) and _same(accelerator.lit, "gpu")):
            return None
        written = [name for name, _ in items]
        found = reasons(index, section.path, name, items, plan.items, written, moves, options.target_tuple)
        if any(not _kept_as_written(reason, before, after, options.target_tuple) for reason in found):
            return None
    return "expression" if zero else "rename"


def _sections(index: ProjectIndex, name: str) -> list[SectionKeys]:
    """The config sections under the top-level key ``name``: ``trainer:`` sections, or another key's mappings
    (``trainer_params:``) where the project splats that key into a Trainer."""
    if name == "trainer":
        return list(index.sections)
    return [section for section in index.keyed_sections if section.key == name]


def _modes(index: ProjectIndex, options: Options) -> dict[str, dict[str, str]]:
    """For each :data:`MOVES` key, as ``<section>.<key>`` (``trainer.gpus``, ``trainer_params.gpus`` where the
    project splats ``trainer_params`` into a Trainer), how the reads in each file move (files whose reads stay are
    not named). Decided per group of uses that may see the same configs (:func:`_components`): an ASR script's
    reads move with the ASR configs where a TTS script's reads of the same key hold the TTS configs."""
    memo_key = ("moved_reads", options.target, options.rules)
    cached = index.memo.get(memo_key)
    if isinstance(cached, dict):
        return cached
    found: dict[str, dict[str, str]] = {}
    names = ["trainer", *sorted({path[0] for path in index.section_paths() if len(path) == 1})]
    for name in names:
        for old, new in MOVES.items():
            uses = index.uses_of(f"{name}.{old}")
            if f"unindexed:{old}" in index.facts or not any(movable_read(use) for use in uses):
                continue
            if name != "trainer" and f"unindexed-keyed:{old}" in index.facts:
                continue  # a notebook or a doc reads it under that key, where the index does not look
            holding = [section for section in _sections(index, name) if any(k == old for k, _ in section.items)]
            groups = _components(index, uses, holding)
            for group in groups:
                mode = _mode(index, options, name, old, new, [uses[i] for i in group], len(groups) == 1)
                if mode is not None:
                    moving = ((uses[i].path, mode) for i in group if movable_read(uses[i]))
                    found.setdefault(f"{name}.{old}", {}).update(moving)
    index.memo[memo_key] = found
    return found


def read_moves(index: object, options: Options) -> frozenset[tuple[str, str, str]]:
    """``(path, key, mode)`` for the reads of :data:`MOVES` keys (``key`` dotted: ``trainer.gpus``,
    ``trainer_params.gpus``) that move with them in this run: ``mode`` is
    ``rename`` or ``expression`` (the read becomes ``codemods.project.store_values.gpus_read``: some value was 0);
    none without a project index."""
    if not isinstance(index, ProjectIndex) or not index.uses:
        return frozenset()
    return frozenset((path, key, mode) for key, paths in _modes(index, options).items() for path, mode in paths.items())


def moved_keys(index: object, options: Options) -> frozenset[str]:
    """The :data:`MOVES` keys whose every read moves in this run: their stores move too (rule ``config_stores``)."""
    if not isinstance(index, ProjectIndex) or not index.uses:
        return frozenset()
    memo_key = ("moved_keys", options.target, options.rules)  # asked for each store use (moves_with_key)
    cached = index.memo.get(memo_key)
    if isinstance(cached, frozenset):
        return cached
    modes = _modes(index, options)
    found = frozenset(
        key.partition(".")[2]
        for key, paths in modes.items()
        if key.startswith("trainer.")  # (a store is indexed under trainer only)
        and all(use.path in paths for use in index.uses_of(key) if movable_read(use))
    )
    index.memo[memo_key] = found
    return found


def moves_with_key(use: Use, index: ProjectIndex, options: Options) -> bool:
    """Whether ``use`` is a read the rule ``config_reads`` rewrites in this run, or a store of such a key that the
    rule ``config_stores`` rewrites (it then holds nothing back)."""
    name = use.key.partition(".")[2]
    if use.stored:
        return name in moved_keys(index, options) and translate(name, use.stored) is not None
    return movable_read(use) and use.path in _modes(index, options).get(use.key, {})


def unset_keys(index: object, options: Options) -> frozenset[str]:
    """The :data:`UNSET_READS` keys that Python reads (``lightning_config.trainer.gpus``) and nothing else in the
    project sets or names: no config section or schema holds them, no code stores them, no override string
    passes them, and their reads do not move (:func:`moved_keys`). What such a read finds comes from outside the
    files given (latent-diffusion's ``--gpus 0,`` reaches ``lightning_config.trainer`` through argparse), so no
    TODO of the configs' covers it: rule ``config_reads`` writes one above it. Only where the target refuses the
    flag (2.0; ``distributed_backend`` 1.5)."""
    if not isinstance(index, ProjectIndex) or not index.uses:
        return frozenset()
    moved = {key.partition(".")[2] for _, key, _ in read_moves(index, options) if key.startswith("trainer.")}
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
