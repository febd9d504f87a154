"""Plan one command's Trainer overrides, and decide project-wide which commands migrate with the configs.

A command's overrides become one :class:`~codemods.plan.model.Plan` (the flags the config does not show are unknown:
``opaque_rest``) and go through the same rules as a ``Trainer(...)`` call or a ``trainer:`` section. What
changed is rendered back per token: a key a rule renamed or added takes the place of the token it came from.

Hydra refuses an override of a key the config lacks (``+key=`` adds one, ``++key=`` adds or overrides, since
Hydra 1.1). A new key's prefix is decided from the project's Trainer sections as they will be once migrated:
present in every one, no prefix; in none, ``+``; otherwise ``++`` where the project requires Hydra >= 1.1,
else the command stays with a TODO. A key is migrated with every use or not at all: a command that changes
a key something else keeps (``cfg.trainer.gpus`` in Python, a sweep left as it is) stays too, and keeps
holding the key (:func:`analysis`). Nor may a command set a new key over one a section keeps in a legacy form
after this run (``trainer.gpus=1 -> trainer.accelerator=gpu`` over a held ``accelerator: ddp`` would override
DDP away; ``codemods.project.section_fates`` foresees each section's keys): it stays, with a TODO naming the section.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from codemods.plan.apply_rules import run_flag_rules
from codemods.plan.model import Note, Plan, Value
from codemods.project.command_fills import Item, fills, null_strategy_over_moved
from codemods.project.command_syntax import Opaque, argparse_value, read_value, render_value, unquote_shell
from codemods.project.keys import DECIDERS
from legacy_api.renames import PL

if TYPE_CHECKING:
    from codemods.model import Options

RULE = "overrides"
_ARGPARSE_GONE = "Trainer.add_argparse_args was removed in 2.0; add these options by hand"


@dataclass
class Decision:
    """What becomes of one command: for each token changed, the items that take its place (none: dropped);
    or why it stays as it is (``todo``). ``notes``: the plan's fixes and reports."""

    replace: dict[int, list[Item]] = field(default_factory=dict)
    todo: str | None = None
    notes: list[Note] = field(default_factory=list)
    #: ``todo`` only points at the TODO of the code the command runs (its ``Trainer.add_argparse_args`` parser):
    #: reported, not a second TODO.
    pointer: bool = False
    #: The rest migrates, but tokens the rules keep as written need a person (``trainer.auto_scale_batch_size=True``:
    #: gone with no replacement): the TODO that says so, on the command.
    keeps: str | None = None

    @property
    def rewrites(self) -> bool:
        return self.todo is None and bool(self.replace)

    def changed_keys(self, items: Sequence[Item]) -> set[str]:
        return {f"trainer.{items[index][2]}" for index in self.replace if items[index][0] != "argparse"}


#: A LightningCLI value of comma-separated indices (``--trainer.gpus 2,3``).
_CLI_LIST = re.compile(r"\d+(?:\s*,\s*\d+)+\s*,?")


def _literal(item: Item, shell: bool) -> object:
    """What the program the command runs reads for ``item``'s value (an :class:`Opaque` where it cannot be read):
    1.5's ``add_argparse_args`` parser for ``--gpus``-style options, Hydra or jsonargparse for the others."""
    raw = item[3]
    if item[0] == "argparse":
        return argparse_value(item[2], raw)
    text = unquote_shell(raw) if shell else raw
    lit = text if isinstance(text, Opaque) else read_value(text)
    if item[0] == "cli" and isinstance(lit, Opaque) and isinstance(text, str) and _CLI_LIST.fullmatch(text):
        # jsonargparse has no sweeps: ``--trainer.gpus 2,3`` is the string "2,3" (1.5's Union[List[int], str, int])
        return text
    if shell and isinstance(lit, str) and raw[:1] in "'\"" and not isinstance(read_value(lit), str):
        lit = read_value(lit)  # "16" quoted for the shell reaches Hydra as 16
    return lit


def _value(item: Item, shell: bool) -> Value:
    raw, lit = item[3], _literal(item, shell)
    if isinstance(lit, Opaque):
        count = _placeholders(item, shell)
        if count:  # selects like as many valid indices; written as it is
            return Value(node=raw, lit=list(range(count)), source=raw, stand_in=True)
        return Value(node=raw, source=raw)
    return Value(node=raw, lit=lit, source=raw)


#: An item of a list of GPU indices left for the reader to fill in: ``<GPU_ID>``, ``GPU`` (a script replaces it).
_PLACEHOLDER = re.compile(r"<[^<>\s]+>|[A-Za-z_]\w*")


def _placeholders(item: Item, shell: bool) -> int:
    """How many items ``trainer.gpus=[<CHANGE_TO_GPU_YOU_WANT_TO_USE>]`` (NeMo's docs) or ``trainer.gpus=[GPU]``
    (a script's template) has; 0 for any other value. Whatever fills them in, 1.5 read the list as GPU indices and
    ``trainer.devices=`` next to ``trainer.accelerator=gpu`` reads it the same way (both refuse a name as written)."""
    text = unquote_shell(item[3]) if shell else item[3]
    if item[0] == "argparse" or item[2] != "gpus" or not isinstance(text, str):
        return 0
    text = text.strip()
    if text[:1] in "'\"" and text[-1:] == text[:1]:
        text = text[1:-1].strip()
    if not (text.startswith("[") and text.endswith("]")):
        return 0
    parts = [part.strip() for part in text[1:-1].split(",")]
    named = [part for part in parts if not part.isdigit()]
    if not all(_PLACEHOLDER.fullmatch(part) and isinstance(read_value(part), str) for part in named):
        return 0
    return len(parts)


def _plan(items: Sequence[Item], values: list[Value], options: Options, opaque: bool) -> Plan:
    pairs = [(item[2], value) for item, value in zip(items, values, strict=True)]
    plan = Plan(list(pairs), options.target_tuple, PL, options.enabled, opaque_rest=opaque, written_in="command")
    plan.origin = {key: "explicit" for key, _ in pairs}
    run_flag_rules(plan)
    return plan


def _why_opaque(item: Item, shell: bool) -> str:
    value = _literal(item, shell)
    return value.why if isinstance(value, Opaque) else "a value this tool cannot read"


def _spelled(item: Item) -> str:
    """``trainer.gpus=2`` (a Hydra or LightningCLI key), ``--gpus=2`` (an option of ``add_argparse_args``)."""
    return f"--{item[2]}={item[3]}" if item[0] == "argparse" else f"trainer.{item[2]}={item[3]}"


def decide(
    items: Sequence[Item],
    options: Options,
    sections: Sequence[frozenset[str]] | None,
    facts: frozenset[str],
    shell: bool = True,
    before: Sequence[frozenset[str]] | None = None,
    schema: frozenset[str] = frozenset(),
    won: Sequence[frozenset[str]] | None = None,
) -> Decision:
    """Plan one command (:func:`_decide`), then weigh a ``trainer.devices=`` that a config's ``gpus:`` beat in 1.5
    (:func:`_beaten_by_the_config`; ``won``: each section's device flags whose value chose devices, as written):
    dropped where every config the command may override had such a flag (1.5 ignored it there), else a TODO that
    leaves the rest of the command to migrate (a second run meets the configs migrated and no longer sees why, so
    it must find the same edits made)."""
    decision = _decide(items, options, sections, facts, shell, before, schema)
    beaten = _beaten_by_the_config(items, sections, won, shell)
    if beaten is None or decision.todo is not None:
        return decision
    why, everywhere = beaten
    devices = [index for index, item in enumerate(items) if item[0] == "hydra" and item[2] == "devices"]
    alone = not any(item[2] == "accelerator" for item in items) and not set(devices) & set(decision.replace)
    if devices and everywhere and alone:
        note = Note(
            "device_flags",  # (the site's own finding is the rewrite's, rule overrides)
            f"trainer.devices dropped: {why} in every config this command may override, whose migrated devices: "
            "then apply as 1.5's flag did",
            kind="report",
        )
        dropped: dict[int, list[Item]] = {index: [] for index in devices}
        return dataclasses.replace(decision, replace={**decision.replace, **dropped}, notes=[*decision.notes, note])
    todo = (
        f"{why}, and once that config migrates its count is devices:, which this command would then override; "
        "migrate them together by hand"
    )
    spelled = " ".join(f"{item[1]}trainer.{item[2]}" for item in items if item[0] != "argparse")
    keeps = f"{spelled}: {todo}" if decision.keeps is None else f"{decision.keeps}; {todo}"
    return dataclasses.replace(decision, keeps=keeps)


def _decide(
    items: Sequence[Item],
    options: Options,
    sections: Sequence[frozenset[str]] | None,
    facts: frozenset[str],
    shell: bool = True,
    before: Sequence[frozenset[str]] | None = None,
    schema: frozenset[str] = frozenset(),
) -> Decision:
    """Plan one command. ``sections``: the keys of each Trainer section of the project once migrated (None: no
    config was seen), ``before``: as written; ``facts``: what the project index knows (``hydra>=1.1``,
    ``argparse_trainer``); ``schema``: the fields of the Trainer-mirroring classes the configs the command
    overrides may be built on, once migrated (a key a YAML section lacks may be there)."""
    keys = [item[2] for item in items]
    spelled = " ".join(f"{item[1]}trainer.{item[2]}" if item[0] != "argparse" else f"--{item[2]}" for item in items)
    if items[0][0] == "argparse" and options.target_tuple >= (2, 0):
        # The parser that read these options is gone: what --gpus 0 means now is whatever the script's new
        # options make of it (solo-learn turns its args.gpus into a list), so the script's TODO says it all.
        # An option of the project's own (parser.add_argument("--gpus")) is its code's to migrate.
        own = [f"--{key}" for key in keys if f"option:--{key}" in facts]
        if own:
            why = f"{', '.join(own)}: an option of the project's own parser, left as it is"
            return Decision(todo=f"{why} (migrate the code that reads it)", pointer=True)
        return Decision(todo=f"{spelled}: {_ARGPARSE_GONE}", pointer=True)
    if len(set(keys)) != len(keys):
        return Decision(todo=f"{spelled}: a key set twice in one command")
    if any(item[1] == "~" for item in items):
        values = [_value(item, shell) for item in items]
        trial = _plan(items, values, options, True)
        if [k for k, _ in trial.items] != keys:
            return Decision(todo=f"{spelled}: a key deleted with ~ that the rules change; migrate it by hand")
        return Decision()
    values = [_value(item, shell) for item in items]
    plan = _plan(items, values, options, True)
    decision = _read(items, values, plan, shell)
    needs_retry = decision.todo is not None or any(
        not new and items[index][1] not in ("+",) for index, new in decision.replace.items()
    )
    if needs_retry and before and _sees_every_decider(keys, before):
        retry = _read(items, values, _plan(items, values, options, False), shell)
        if retry.todo is None and all(new or items[index][1] == "+" for index, new in retry.replace.items()):
            decision = retry
    if decision.todo is not None:
        return decision
    notes = list(decision.notes)
    if null_strategy_over_moved(items, before, sections):
        notes.append(
            Note(
                "trainer_defaults",  # (the site's own finding is the rewrite's, rule overrides)
                f"{spelled}: trainer.strategy=null becomes trainer.strategy=auto; over a config whose accelerator: ddp "
                "became strategy: ddp, 1.5 kept DDP, where 2.x's auto picks DDP only on several devices",
                kind="report",
            )
        )
    replaced = fills(items, decision.replace, sections, before, options.target_tuple)
    decision = Decision(replaced, None, notes, decision.pointer, decision.keeps)
    written = {new[2] for news in decision.replace.values() for new in news}
    if "strategy" in written and any("plugins" in section for section in before or ()):
        # 1.5 ran a strategy in a config's plugins: whatever accelerator= the command set (a recorded case)
        return Decision(
            todo=f"{spelled}: a config it may override passes a strategy in plugins:, which 1.5 ran "
            "whatever this command said; migrate them together by hand"
        )
    for index, new in decision.replace.items():
        if not new and items[index][1] != "+":
            return Decision(
                todo=f"{spelled}: the rules drop {items[index][1]}trainer.{items[index][2]}, and without it the "
                "config's value would apply; migrate it by hand",
            )
    return _prefixes(items, decision, sections, facts, before, schema)


#: The 1.5 device flags that beat ``devices=`` and ``accelerator="cpu"`` (recorded 1.5.10, group "precedence"), and
#: that a migrated config holds as ``devices``.
_DEVICE_FLAGS = frozenset({"gpus", "tpu_cores", "ipus", "num_processes"})


#: How a config writes a device flag that chose no device (``gpus: 0``, ``gpus: null``, ``gpus: []``).
_FALSY_TEXT = frozenset({"0", "null", "~", "None", "[]", "", "false", "False"})


def device_flags_won(items: Sequence[tuple[str, str]]) -> frozenset[str]:
    """The 1.5 device flags of a section, as written (``(key, value)``), whose value chose devices: ``gpus: 2``,
    not ``gpus: 0``/``null``/``[]``; a value the text cannot tell (an interpolation) counts."""
    return frozenset(
        key for key, value in items if key in _DEVICE_FLAGS and value.strip().strip("'\"") not in _FALSY_TEXT
    )


def _beaten_by_the_config(
    items: Sequence[Item],
    sections: Sequence[frozenset[str]] | None,
    won: Sequence[frozenset[str]] | None,
    shell: bool,
) -> tuple[str, bool] | None:
    """Why a command's ``trainer.devices=`` (or ``trainer.accelerator=cpu``) needs a person, and whether that holds
    for every config it may override: over a config whose ``gpus: 2`` (``tpu_cores: 8``, ...) migrates in this run,
    1.5 ran that flag's devices and ignored the command's (one CPU process for "cpu"), but the migrated config's
    count is ``devices:``, which the command then overrides. None where no such config migrates (a held one keeps
    its flag, and 2.x refuses it anyway), or the command sets a device flag itself (the plan reads them together)."""
    keys = {item[2] for item in items if item[0] == "hydra"}
    if not sections or not won or len(sections) != len(won) or keys & _DEVICE_FLAGS:
        return None
    cpu = any(item[2] == "accelerator" and _literal(item, shell) == "cpu" for item in items if item[0] == "hydra")
    if "devices" not in keys and not cpu:
        return None
    moving = [flags - after for flags, after in zip(won, sections, strict=True)]
    if not any(moving):
        return None
    flags = "/".join(sorted(set().union(*moving)))
    what = "trainer.devices" if "devices" in keys else "the device count"
    return f"1.5 ignored {what} next to a config's {flags} (which won)", all(moving)


def _sees_every_decider(keys: Sequence[str], sections: Sequence[frozenset[str]]) -> bool:
    return all(section & DECIDERS <= set(keys) for section in sections)


def _read(items: Sequence[Item], values: list[Value], plan: Plan, shell: bool) -> Decision:
    """Which tokens the plan changed and what replaces each; a TODO when the plan gave up or the change needs a
    value the command cannot hold."""
    todos = [note.message for note in plan.notes if note.todo]
    position = {id(value): index for index, value in enumerate(values)}
    unchanged = {
        position[id(value)]
        for key, value in plan.items
        if id(value) in position and key == items[position[id(value)]][2]
    }
    changed = [index for index in range(len(items)) if index not in unchanged]
    keeps = None
    if todos:
        unread = [
            f"{_spelled(item)} is {_why_opaque(item, shell)}"
            for item, value in zip(items, values, strict=True)
            if not value.known and any(f"{item[2]}=" in todo for todo in todos)
        ]
        if unread:  # the rule's own advice is about Python values; this says what the command holds
            return Decision(todo="; ".join(unread) + ": left as it is, rewrite it by hand")
        if not changed or not _only_about(todos, [items[index] for index in sorted(unchanged)], items):
            return Decision(todo="; ".join(todos))
        keeps = "; ".join(todos)  # what the TODOs concern stays as written; the rest migrates
    if not changed:
        return Decision(notes=list(plan.notes))
    for index in changed:
        if not values[index].known:
            return Decision(todo=f"{_spelled(items[index])} is {_why_opaque(items[index], shell)}")
    replace: dict[int, list[Item]] = {index: [] for index in changed}
    anchor = changed[0]
    for key, value in plan.items:
        source = position.get(id(value))
        if source is not None and source in unchanged:
            continue
        if source is not None:
            anchor = source
            text = items[source][3]
        else:
            # a new value of a key the command sets stays at that key's place (precision=16 -> 16-mixed)
            anchor = next((i for i in changed if items[i][2] == key), anchor)
            rendered = render_value(value.lit) if value.known else None
            if rendered is None:
                return Decision(todo=f"{key}={value.text} cannot be written on a command line")
            text = rendered
        origin = items[anchor]
        replace[anchor].append((origin[0], origin[1], key, text))
    return Decision(replace=replace, notes=list(plan.notes), keeps=keeps)


def _only_about(todos: Sequence[str], kept: Sequence[Item], items: Sequence[Item]) -> bool:
    """Whether each TODO names a token the rules keep as written (``auto_scale_batch_size=True (gone in 2.0)``) and
    none that they change: those stay for a person while the rest of the command migrates."""
    names = {item[2] for item in kept}
    others = {item[2] for item in items} - names
    return all(
        any(f"{name}=" in todo for name in names) and not any(f"{name}=" in todo for name in others) for todo in todos
    )


def _prefixes(
    items: Sequence[Item],
    decision: Decision,
    sections: Sequence[frozenset[str]] | None,
    facts: frozenset[str],
    before: Sequence[frozenset[str]] | None,
    schema: frozenset[str] = frozenset(),
) -> Decision:
    """Each Hydra key's prefix, from the migrated configs (see the module docstring).

    The configs seen are trusted only where they agree with the command: ``trainer.gpus=`` where every section
    has ``gpus``, ``+trainer.gpus=`` where none has. Otherwise (a key from a schema or from a config this run
    did not see) a renamed token keeps its prefix and a new key needs ``++``. A key a schema the configs may be
    built on has (``schema``) may be there where no section has it: ``+`` would fail there, so it needs ``++`` too.
    """
    if "dotlist-cli" in facts:  # an OmegaConf dotlist adds what it does not find; a prefix would be part of the key
        return Decision(dict(decision.replace), None, decision.notes, keeps=decision.keeps)
    force = "hydra>=1.1" in facts and "hydra<1.1" not in facts
    out: dict[int, list[Item]] = {}
    for index, new in decision.replace.items():
        origin = items[index]
        if origin[0] == "argparse" and ("argparse_trainer" not in facts or f"option:--{origin[2]}" in facts):
            return Decision(todo=f"--{origin[2]}: no parser built by Trainer.add_argparse_args is known to read it")
        had = [origin[2] in section for section in before or ()]
        trusted = bool(sections) and ((origin[1] == "" and all(had)) or (origin[1] == "+" and not any(had)))
        rendered: list[Item] = []
        for style, prefix, key, value in new:
            if style == "hydra" and prefix != "++" and (trusted or key != origin[2]):
                if trusted and sections:
                    present = [key in section for section in sections]
                    if not any(present) and key in schema:
                        present.append(True)  # a structured config's field: Hydra refuses to add it again
                    prefix = "" if all(present) else "+" if not any(present) else "++" if force else "?"
                elif prefix != "+" or sections:
                    prefix = "++" if force else "?"
                if prefix == "?":
                    return Decision(
                        todo=f"trainer.{key}: cannot tell whether the config has it (add it with +trainer.{key}= "
                        f"or override it with trainer.{key}=); Hydra >= 1.1 would take ++trainer.{key}=",
                    )
            rendered.append((style, prefix, key, value))
        out[index] = rendered
    return Decision(out, None, decision.notes, keeps=decision.keeps)
