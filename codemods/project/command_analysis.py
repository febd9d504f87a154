"""Which override commands of a project migrate with its configs, decided once per run (issue 26).

Each command is planned by ``codemods.project.command_plans`` against the Trainer sections its script may load
(``codemods.project.command_scripts``); a command stays as it is where it would change a key that something which
never migrates still uses (a read, an interpolation, a mention), or set a new key over one a config keeps in a legacy
form; a command that stays holds its own keys in turn, until nothing changes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from codemods.project.command_fills import Item, fails_anyway
from codemods.project.command_plans import Decision, decide, device_flags_won
from codemods.project.command_syntax import read_value
from codemods.project.guard import changed_keys, unfit
from codemods.project.moved_reads import moves_with_key
from codemods.project.moved_stores import store_moves
from codemods.project.scan_text import DOTLIST_CLI
from codemods.project.schema_plans import migrated_schema, schema_facts
from codemods.project.section_fates import fates
from codemods.project.section_plans import plan_section, section_values
from legacy_api.removed_arguments import refused_at
from legacy_api.target_aliases import same_on_target

if TYPE_CHECKING:
    from codemods.model import Options
    from codemods.project.index import ProjectIndex, SectionKeys, Use
    from codemods.project.section_fates import Fate


@dataclass
class Analysis:
    """The run's decisions about commands (see :func:`analysis`)."""

    sections: list[frozenset[str]] | None
    #: The keys of each section as written.
    before: list[frozenset[str]] | None
    facts: frozenset[str]
    #: Commands (as the index stores them) that migrate; every other command keeps its keys in the configs.
    migrating: set[tuple[Item, ...]]
    decisions: dict[tuple[Item, ...], Decision]
    #: The device flags of each section as written whose value chose devices (``gpus: 2``, not ``gpus: 0``).
    won: list[frozenset[str]] | None = None


def _section_keys(index: ProjectIndex, options: Options, held_at: list[set[str]]) -> list[frozenset[str]] | None:
    """The keys of each Trainer section once the YAML front end migrates it (``held_at``: for each, the keys used
    where it may be seen, which stay)."""
    if not index.sections:
        return None
    out = []
    for section, held in zip(index.sections, held_at, strict=True):
        # planned as the YAML front end plans it (gpus: 0 writes accelerator: cpu, devices: 1); a key it would
        # change that is used where the section may be seen stays (the project guard holds it), and the rest is
        # planned without it
        items = section_values(section)
        plan = plan_section(items, options, section, index)
        kept = {key for key in changed_keys(items, plan.items) if f"trainer.{key}" in held}
        if kept:
            rest = frozenset(key for key, _ in section.items if key not in kept)
            plan = plan_section(section_values(section, rest), options, section, index, frozenset(kept))
        written = frozenset(key for key, _ in section.items)
        after = frozenset(plan.keys()) | kept
        # a key the plan adds that a schema of the section lacks: the guard holds the section as it is written
        out.append(written if unfit(index, written, sorted(after - written), options.target_tuple) else after)
    return out


def analysis(index: ProjectIndex, options: Options) -> Analysis:
    """Which override commands of the project migrate (memoised on the index per target and rule set).

    Keys used by what never migrates (reads, interpolations, mentions in prose) stay in the configs; a command
    that would change such a key stays as it is, and then holds its own keys too, until nothing changes.
    """
    memo_key = ("overrides", options.target, options.rules)
    cached = index.memo.get(memo_key)
    if isinstance(cached, Analysis):
        return cached
    # a read that moves with its key (``cfg.trainer.gpus`` -> ``cfg.trainer.devices``) fixes nothing: the key goes
    fixed_uses = [
        use
        for use in index.uses
        if (use.kind != "override" or not use.command)
        and not moves_with_key(use, index, options)
        and not store_moves(use, index, options.target_tuple)
    ]
    fixed = {use.key for use in fixed_uses}
    # per section, the keys of those that may see it (an ASR script's read holds no TTS config)
    held_at = [{use.key for use in fixed_uses if index.use_reaches(use, section.path)} for section in index.sections]
    sections = _section_keys(index, options, held_at)
    before = [frozenset(key for key, _ in section.items) for section in index.sections] or None
    won = [device_flags_won(section.items) for section in index.sections] or None
    facts = frozenset(index.facts)
    decisions: dict[tuple[Item, ...], Decision] = {}
    places = _places(index)
    fixed_for: dict[tuple[Item, ...], set[str]] = {}
    reached: dict[tuple[Item, ...], list[int]] = {}

    def plan(command: tuple[Item, ...], after: Sequence[frozenset[str]] | None) -> Decision:
        """``command`` planned against the sections its script may load (every one where it is not known), each
        with the keys ``after`` says it has once migrated."""
        shell = not places[command][0].path.endswith(".py")
        schema = _schema_keys(index, options, places[command])
        known = _command_facts(index, places[command], facts)
        mine = reached[command]
        if mine and after is not None and before is not None and len(mine) < len(index.sections):
            picked = [won[i] for i in mine] if won is not None else None
            decision = decide(
                command, options, [after[i] for i in mine], known, shell, [before[i] for i in mine], schema, picked
            )
        else:
            decision = decide(command, options, after, known, shell, before, schema, won)
        _keep_as_written(command, decision, fixed_for[command], options.target_tuple)
        return decision

    for use in index.uses:
        if use.kind == "override" and use.command and use.command not in decisions:
            mine = [i for i, section in enumerate(index.sections) if _reaches(index, places[use.command], section)]
            reached[use.command] = mine
            fixed_for[use.command] = {key for i in mine for key in held_at[i]} if mine else fixed
            decisions[use.command] = plan(use.command, sections)
    # A command that stays holds, of its keys, those a config would drop or rename (``gpus``): the config
    # keeps them, so no other command may rename them. A key no config drops holds nothing.
    # A key the target refuses is not held by a command that stays: the guard migrates its configs anyway (that
    # command fails on the target either way, with its own TODO), so the other commands move with the configs.
    removed = {
        f"trainer.{key}"
        for old, new in zip(before or [], sections or [], strict=True)
        for key in old - new
        if not refused_at(key, options.target_tuple)
    }

    def holds(commands: Iterable[tuple[Item, ...]]) -> set[str]:
        # (a command left with its own TODO does not hold what fails on the target anyway; one that stays because
        # of another command or a read, with no TODO of its own, holds every key it sets)
        return {
            f"trainer.{item[2]}"
            for command in commands
            for item in command
            if not (decisions[command].todo is not None and fails_anyway(item))
        } & removed

    migrating = {command for command, decision in decisions.items() if decision.rewrites}
    held = holds(command for command in decisions if command not in migrating)
    # A key the target refuses holds no command: left as it is, the command fails there whatever the configs hold;
    # rewritten, it works once they migrate (a read that holds the configs keeps them failing loudly until then).
    refused = {
        f"trainer.{item[2]}" for command in decisions for item in command if refused_at(item[2], options.target_tuple)
    }
    replanned = 0
    while True:
        stays = {
            command
            for command in migrating
            if (decisions[command].changed_keys(command) & (held | fixed_for[command])) - refused
        }
        if not stays:
            # Only once the held keys settle: which sections keep legacy keys depends on which commands stay.
            kept = fates(index, options, {c: decisions[c].changed_keys(c) for c in migrating}, failing(decisions))
            clashes = _clashes(index, migrating, decisions, places, kept)
            decisions.update(clashes)
            stays = set(clashes)
            if not stays and replanned < 2 and sections is not None:
                # The sections were foreseen before any command was planned: a token a command leaves as written
                # (``+trainer.strategy=ddp``) holds its key there too, and the section then keeps gpus and writes
                # no devices. Each command's prefixes must fit the sections as they end up.
                replanned += 1
                after = [fate.after for fate in kept]
                changed = {c: plan(c, after) for c in sorted(migrating)}
                changed = {c: d for c, d in changed.items() if (d.replace, d.todo) != (decisions[c].replace, None)}
                decisions.update(changed)
                stays = {c for c, d in changed.items() if not d.rewrites}
                if changed and not stays:
                    continue
        if not stays:
            break
        migrating -= stays
        held |= holds(stays)
    result = Analysis(sections, before, facts, migrating, decisions, won)
    index.memo[memo_key] = result
    return result


def _keep_as_written(command: tuple[Item, ...], decision: Decision, fixed: set[str], target: tuple[int, ...]) -> None:
    """Leave as written the tokens of ``command`` that something which never migrates reads (``fixed``: megatron's
    ``cfg.trainer.precision == 16``) where the target takes the old value as the new one (``trainer.precision=16``,
    which 2.x reads as ``16-mixed``; ``legacy_api.target_aliases``): the configs keep such a key as written too, so
    the rest of the command migrates with them instead of staying."""
    for index in list(decision.replace):
        _style, _prefix, key, text = command[index]
        new = decision.replace[index]
        if f"trainer.{key}" not in fixed or len(new) != 1 or new[0][2] != key:
            continue
        if same_on_target(key, read_value(text), read_value(new[0][3]), target):
            del decision.replace[index]


def _places(index: ProjectIndex) -> dict[tuple[Item, ...], list[Use]]:
    """Where each command of the project is written (the same command may run in several places)."""
    found: dict[tuple[Item, ...], list[Use]] = {}
    for use in index.uses:
        if use.kind == "override" and use.command:
            found.setdefault(use.command, []).append(use)
    return found


def _command_facts(index: ProjectIndex, uses: Sequence[Use], facts: frozenset[str]) -> frozenset[str]:
    """The project's facts, with ``dotlist-cli`` where every script the command may run parses its command line with
    ``OmegaConf.from_cli()`` (``codemods.project.scan_text``): its keys need no Hydra prefix."""
    scripts = [path for use in uses for path in (index.script_files(use.script, use.path) if use.script else ())]
    if scripts and all(f"{DOTLIST_CLI}{path}" in facts for path in scripts):
        return facts | {DOTLIST_CLI.rstrip(":")}
    return facts


def _schema_keys(index: ProjectIndex, options: Options, uses: Sequence[Use]) -> frozenset[str]:
    """The fields of the project's Trainer-mirroring classes once migrated, where a command written at ``uses`` may
    override a config built on one: its script is not known, or may meet a schema (``ProjectIndex.schema_free``)."""
    if not index.schemas:
        return frozenset()
    scripts = [path for use in uses for path in (index.script_files(use.script, use.path) if use.script else ())]
    if scripts and all(index.schema_free(path) for path in scripts):
        return frozenset()
    facts = schema_facts(index)
    target = options.target_tuple
    return frozenset(name for schema in index.schemas for name, _ in migrated_schema(schema, target, facts).fields)


def _reaches(index: ProjectIndex, uses: Sequence[Use], section: SectionKeys) -> bool:
    return any(index.use_reaches(use, section.path) for use in uses)


def failing(decisions: dict[tuple[Item, ...], Decision]) -> frozenset[tuple[Item, ...]]:
    """The commands left with a TODO of their own."""
    return frozenset(c for c, d in decisions.items() if d.todo is not None)


def _clashes(
    index: ProjectIndex,
    migrating: set[tuple[Item, ...]],
    decisions: dict[tuple[Item, ...], Decision],
    places: dict[tuple[Item, ...], list[Use]],
    kept: Sequence[Fate],
) -> dict[tuple[Item, ...], Decision]:
    """The migrating commands that would set a key over one a section keeps in a legacy form (``accelerator:
    ddp`` held or left as it is, as ``kept`` foresees): each stays, with a TODO naming the sections."""
    out: dict[tuple[Item, ...], Decision] = {}
    for command in sorted(migrating):
        decision = decisions[command]
        own = {item[2] for item in command}
        written = {new[2] for news in decision.replace.values() for new in news} - own
        # only the sections the command may reach (the configs its script loads)
        hits = [
            (key, fate.section.path)
            for fate in kept
            if _reaches(index, places[command], fate.section)
            for key in sorted(written & fate.legacy)
        ]
        if not hits:
            continue
        keys = ", ".join(f"trainer.{key}" for key in sorted({key for key, _ in hits}))
        paths = sorted({index.where(path) for _, path in hits})
        where = " and ".join(paths) if len(paths) <= 2 else f"{', '.join(paths[:2])} and {len(paths) - 2} more"
        changed = " ".join(_spell(command[index]) for index in sorted(decision.replace))
        out[command] = Decision(
            todo=f"{changed}: its new keys would override the legacy {keys} that {where} "
            f"{'keeps' if len(paths) == 1 else 'keep'}; left as it is, migrate them together by hand",
        )
    return out


def _spell(item: Item) -> str:
    style, prefix, key, value = item
    return f"{prefix}trainer.{key}={value}" if style == "hydra" else f"--trainer.{key} {value}"


def migrates(use: Use, index: ProjectIndex, options: Options) -> bool:
    """Whether ``use`` is an override that is rewritten in this run, together with the config key it sets. A token
    the rewrite leaves as it is (``+trainer.strategy=ddp`` beside a ``trainer.gpus=4`` that migrates) is a use that
    stays, as it is on the next run, when the command no longer changes: both runs must decide alike."""
    if use.kind != "override" or not use.command:
        return False
    run = analysis(index, options)
    if use.command not in run.migrating:
        return False
    decision = run.decisions.get(use.command)
    return decision is None or use.key in decision.changed_keys(use.command)


def command_todo(use: Use, index: ProjectIndex, options: Options) -> bool:
    """Whether the command ``use`` is part of gets a TODO of its own (it stays with one, or a token of it that the
    rewrite keeps as written needs a person): one TODO per command, on the command."""
    if use.kind != "override" or not use.command:
        return False
    decision = analysis(index, options).decisions.get(use.command)
    return decision is not None and (decision.todo is not None or decision.keeps is not None) and not decision.pointer
