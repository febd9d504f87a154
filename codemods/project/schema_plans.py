"""A class that mirrors the Trainer's arguments (``@dataclass class TrainerConfig: gpus: Any = None``) migrated as
the Trainer section it is (issue 26, item 2).

Its fields' defaults are the flags every config built on it passes (``Trainer(**cfg.trainer)`` gets all of them, the
configs' own keys on top), so the class is planned as one section by the same flag rules that plan a YAML one, and
its body follows the plan: a field the plan drops goes where the target refuses the argument, or takes the target's
default where it still takes it (an absent key is that default: ``strategy: Any = None`` -> ``"auto"``); a changed
value becomes the field's new default (``max_steps: Optional[int] = None`` -> ``-1``); a key the plan puts in a
field's place renames that field (``replace_sampler_ddp`` -> ``use_distributed_sampler``); a key the plan adds
becomes a new field. What the plan leaves to a person (a TODO, or a value that is no literal) keeps the field with
its TODO (rule ``schema_fields``), and a plan that gives up on the devices changes nothing.

Configs built on the class then validate against the fields the migrated configs hold (``accelerator``,
``devices``, ``strategy``): the project guard and the moved stores read :func:`migrated_fields`.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING

from codemods.plan.apply_rules import run_flag_rules
from codemods.plan.model import UNKNOWN, Plan, Value
from codemods.plan.schema_model import KEEP as _KEEP
from codemods.plan.schema_model import SchemaFacts, SchemaPlan, widened
from legacy_api.removed_arguments import REMOVED_ARGUMENTS, refused_at
from legacy_api.renames import PL
from legacy_api.surface import arguments, release_for, surface

if TYPE_CHECKING:
    from codemods.project.index import ProjectIndex, Schema

_NO_DEFAULT = object()
#: No project around (a single file): no key used elsewhere, no config known.
NO_FACTS = SchemaFacts()


def _literal(text: str) -> object:
    if not text:
        return UNKNOWN
    try:
        return ast.literal_eval(text)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return UNKNOWN


def target_default(name: str, target: tuple[int, ...]) -> object:
    """The default the target's ``Trainer.__init__`` gives ``name`` (``strategy`` -> ``"auto"``), a sentinel where it
    takes no such argument or its default is no literal."""
    release = release_for(".".join(map(str, target[:2])))
    args = arguments(surface(release).signature(f"{PL}.Trainer.__init__"))
    if args is None:
        return _NO_DEFAULT
    for arg, default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        if arg.arg == name and default is not None:
            value = _literal(ast.unparse(default))
            return _NO_DEFAULT if value is UNKNOWN else value
    positional = args.posonlyargs + args.args
    for arg, default in zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True):
        if arg.arg == name:
            value = _literal(ast.unparse(default))
            return _NO_DEFAULT if value is UNKNOWN else value
    return _NO_DEFAULT


def plan_schema(
    fields: Sequence[tuple[str, str]], target: tuple[int, ...], facts: SchemaFacts = NO_FACTS
) -> SchemaPlan | None:
    """The plan for a class whose fields are ``fields`` (name, default as written; "" for none), or None where
    nothing changes or the flag rules give up on the devices (the fields then keep their TODOs). ``facts.used``:
    removed arguments the project's code reads or stores as config keys (``cfg.trainer.resume_from_checkpoint =
    path``): their fields stay, with their TODOs, since the code would meet a config without them."""
    if target < (2, 0) or not any(refused_at(name, target) for name, _ in fields):
        return None  # no 1.x argument in it: a class with a strategy and a precision may be anything
    items = [(name, Value(node=text, lit=_literal(text), source=text or None)) for name, text in fields]
    plan = Plan(list(items), target, PL, lambda rule: True, written_in="yaml", origin={k: "explicit" for k, _ in items})
    run_flag_rules(plan)
    if plan.stopped:
        return None
    before = dict(items)
    after = dict(plan.items)
    out: list[tuple[str, str | None, object]] = []
    claimed: set[str] = set()
    for name, _text in fields:
        if name in after:
            value = after[name]
            if value is before[name]:
                out.append((name, name, _KEEP))
            elif value.known:
                out.append((name, name, value.lit))
            else:
                out.append((name, name, _KEEP))  # a value no literal spells: left, and held below
            claimed.add(name)
            continue
        successor = plan.successor.get(name)
        if successor and successor in after and successor not in before and successor not in claimed:
            value = after[successor]
            if value.known:
                out.append((successor, name, value.lit))
                claimed.add(successor)
                continue
        if not refused_at(name, target):
            default = target_default(name, target)
            if default is not _NO_DEFAULT and name not in claimed:
                out.append((name, name, default))  # absent from the section: the target's default
                claimed.add(name)
                continue
        # refused by the target, and the plan dropped it (its default was 1.5's): the field goes
    for key, value in plan.items:
        if key in claimed or not value.known:
            continue
        position = next((i for i, (name, _, _) in enumerate(out) if name == _before_key(plan, key)), len(out) - 1)
        out.insert(position + 1, (key, None, value.lit))
        claimed.add(key)
    moved = SchemaPlan(tuple(out), ()).changed(fields)  # False: a class 2.x takes as it is stays as it is
    # The keys the migrated configs built on the class write in place of its device flags: a field each, at the
    # target's default (what an absent key means), so that a config's accelerator: ddp -> strategy: ddp validates.
    for key in _DEVICE_KEYS if moved else ():
        if key not in claimed and (default := target_default(key, target)) is not _NO_DEFAULT:
            out.append((key, None, default))
            claimed.add(key)
    kept = {old for _, old, _ in out if old is not None}
    for position, (name, _text) in enumerate(fields):
        if name in facts.used and name not in kept:
            at = next((i for i, (_, old, _) in enumerate(out) if old in {n for n, _ in fields[position:]}), len(out))
            out.insert(at, (name, name, _KEEP))
            after[name] = before[name]
    held = tuple(name for name, _ in fields if name in after and refused_at(name, target))
    parts = [part for note in plan.notes if note.todo for part in note.message.split("; ")]
    todos = tuple((name, part) for name in held for part in parts if part.startswith(f"{name}="))
    reports = tuple((note.rule, note.message) for note in plan.notes if note.kind == "report")
    result = SchemaPlan(tuple(out), held, todos, reports, facts.strings, moved=moved and result_changed(out, fields))
    return result if result.moved or held else None


def result_changed(out: Sequence[tuple[str, str | None, object]], fields: Sequence[tuple[str, str]]) -> bool:
    return SchemaPlan(tuple(out), ()).changed(fields)


def _before_key(plan: Plan, key: str) -> str:
    keys = [name for name, _ in plan.items]
    at = keys.index(key)
    return keys[at - 1] if at else ""


def migrated_fields(fields: Sequence[tuple[str, str]], target: tuple[int, ...]) -> tuple[str, ...]:
    """The field names a Trainer-mirroring class has after this run (``fields``: name, default as written)."""
    plan = plan_schema(fields, target)
    if plan is None:
        return tuple(name for name, _ in fields)
    return tuple(name for name, _, _ in plan.fields)


def schema_facts(index: object) -> SchemaFacts:
    """What ``index`` (a ``ProjectIndex``, or None) says about the keys of its Trainer-mirroring classes: the removed
    arguments its code reads or stores as config keys (the device flags are the moved reads' and stores' to decide),
    and whether a config sets ``precision`` to a value the migration spells as a string. Found once per index: the
    guard, the moved reads and stores and every ``Trainer(**...)`` call ask."""
    memo = getattr(index, "memo", None)
    cached = memo.get(("schema_facts",)) if isinstance(memo, dict) else None
    if isinstance(cached, SchemaFacts):
        return cached
    uses = getattr(index, "uses", ())
    names = {row.name for row in REMOVED_ARGUMENTS}
    used = frozenset(
        name
        for use in uses
        if use.kind != "override" and use.key.startswith("trainer.") and (name := use.key.partition(".")[2]) in names
    )
    strings = {
        name
        for section in getattr(index, "sections", ())
        for name, text in section.items
        if name == "precision" and text.strip().strip("\"'") in _STRING_PRECISIONS
    }
    facts = SchemaFacts(used, frozenset(strings))
    if isinstance(memo, dict):
        memo[("schema_facts",)] = facts
    return facts


#: 1.5 precision values the migration writes as strings (``16-mixed``, ``bf16-mixed``, ``64-true``).
_STRING_PRECISIONS = frozenset({"16", "64", "bf16"})


@cache
def migrated_schema(schema: Schema, target: tuple[int, ...], facts: SchemaFacts = NO_FACTS) -> Schema:
    """``schema`` as this run leaves it: its fields after :func:`plan_schema` (a new field's annotation: its value's
    type, or ``Any``), so that the guard checks the migrated configs against the class they will meet."""
    plan = plan_schema(schema.defaults, target, facts)
    if plan is None or not plan.moved:
        return schema
    annotations = {name: widened(plan, name, text) or text for name, text in schema.fields}
    fields = tuple(
        (name, annotations[old] if old is not None else (type(value).__name__ if type(value) in _SCALARS else "Any"))
        for name, old, value in plan.fields
    )
    return replace(schema, fields=fields, defaults=())


_SCALARS = (bool, int, float, str)
#: What 1.5's device flags (``gpus``, ``accelerator: ddp``) become in a migrated config.
_DEVICE_KEYS = ("accelerator", "devices", "strategy")


def migrating_schemas(index: ProjectIndex, target: tuple[int, ...]) -> frozenset[str]:
    """The names of the project's Trainer-mirroring classes that migrate in this run: a call of one takes the new
    flags then (``TrainerConfig(gpus=2)`` -> ``TrainerConfig(accelerator="gpu", devices=2)``)."""
    facts = schema_facts(index)
    return frozenset(schema.name for schema in index.schemas if migrated_schema(schema, target, facts) != schema)
