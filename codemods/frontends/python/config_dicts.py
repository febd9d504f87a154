"""Trainer sections as dict literals of a config built in Python: ``OmegaConf.create({"trainer": {"gpus": 1}})``.

Where the project hands such a section to a Trainer (``Trainer(**cfg.trainer)``; mmf's ``trainer.params``, splatted
through the object that holds it), the YAML front end migrates the section in the config files. The same keys
written in Python (a test's config, an override merged over the file's) move with them: left as they were, a merge
brings ``gpus`` back next to the file's new ``devices``, and 2.x refuses the Trainer. Only the dicts given to
OmegaConf's ``create``/``merge`` or to ``DictConfig(...)`` are read as configs: elsewhere a dict with a ``trainer``
key may be anything (a payload for a service that runs its own Lightning).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import libcst as cst

from codemods.frontends.python.flags import dict_plan
from codemods.project.index import ProjectIndex
from codemods.project.keys import DECIDERS

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

#: The callables whose dict arguments are configs, as the code spells them (``omegaconf.OmegaConf.create``, too).
_FACTORIES = ("OmegaConf.create", "OmegaConf.merge", "DictConfig")
_LAST_NAMES = frozenset(name.rpartition(".")[2] for name in _FACTORIES)


#: The lines that may start such a call (the flag front end visits only lines that name what a rule looks for).
CALLS = re.compile(r"\b(?:OmegaConf\s*\.\s*(?:create|merge)|DictConfig)\s*\(")


def section_paths(ctx: FileContext) -> frozenset[tuple[str, ...]]:
    """The key paths of the project's config mappings that reach a Trainer: ``("trainer",)`` where some code splats
    ``cfg.trainer`` into one, and each section under another key (``("trainer", "params")``)."""
    index = ctx.options.project
    if not isinstance(index, ProjectIndex):
        return frozenset()
    paths = set(index.section_paths())
    if any(splat.section == "trainer" and splat.kind == "call" for splat in index.splats):
        paths.add(("trainer",))
    return frozenset(paths)


def leave_call(ctx: FileContext, original: cst.Call, updated: cst.Call) -> cst.Call:
    """Each Trainer section among the dict literals ``original`` builds a config from, planned as a dict that is
    splatted into a Trainer (``codemods.frontends.python.flags.dict_plan``)."""
    func = original.func
    last = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
    if last not in _LAST_NAMES:
        return updated  # (every call of the visited lines comes here: no code is generated for the others)
    spelled = ctx.code(func).replace(" ", "")
    factory = next((name for name in _FACTORIES if spelled == name or spelled.endswith(f".{name}")), None)
    if factory is None:
        return updated
    paths = section_paths(ctx)
    if not paths:
        return updated
    args = list(updated.args)
    for index, (old, new) in enumerate(zip(original.args, updated.args, strict=True)):
        if old.star == "" and isinstance(old.value, cst.Dict) and isinstance(new.value, cst.Dict):
            # a created config holds the section whole, as a YAML file does; a merged one overrides another's keys
            value = _sections(ctx, old.value, new.value, paths, (), factory != "OmegaConf.merge")
            if value is not new.value:
                args[index] = new.with_changes(value=value)
    changed = any(a is not b for a, b in zip(args, updated.args, strict=True))
    return updated.with_changes(args=args) if changed else updated


def _sections(
    ctx: FileContext,
    original: cst.Dict,
    updated: cst.Dict,
    paths: frozenset[tuple[str, ...]],
    prefix: tuple[str, ...],
    complete: bool,
) -> cst.Dict:
    elements = list(updated.elements)
    for index, (old, new) in enumerate(zip(original.elements, updated.elements, strict=True)):
        if not (isinstance(old, cst.DictElement) and isinstance(new, cst.DictElement)):
            continue
        key = old.key.evaluated_value if isinstance(old.key, cst.SimpleString) else None
        if not isinstance(key, str) or not isinstance(old.value, cst.Dict) or not isinstance(new.value, cst.Dict):
            continue
        path = (*prefix, key)
        if path in paths:
            whole = complete or _overrides_every_decider(ctx, path, old.value)
            value = dict_plan(ctx, old.value, new.value, complete=whole, merged=not whole)
        elif any(found[: len(path)] == path for found in paths):
            value = _sections(ctx, old.value, new.value, paths, path, complete)
        else:
            continue
        if value is not new.value:
            elements[index] = new.with_changes(value=value)
    changed = any(a is not b for a, b in zip(elements, updated.elements, strict=True))
    return updated.with_changes(elements=elements) if changed else updated


def _overrides_every_decider(ctx: FileContext, path: tuple[str, ...], value: cst.Dict) -> bool:
    """Whether a merged ``trainer`` section sets every key that decides the devices in each of the project's config
    sections (``{"gpus": 0}`` over ``gpus: 2``): what it asks for is then what runs, and it is planned whole, as a
    command line's override is (``codemods.project.command_plans``)."""
    index = ctx.options.project
    if not isinstance(index, ProjectIndex) or not index.sections:
        return False
    keys = {
        e.key.evaluated_value
        for e in value.elements
        if isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString)
    }
    if path == ("trainer",):
        found = [{name for name, _ in section.items} for section in index.sections]
    elif len(path) == 2 and path[0] == "trainer":  # mmf's trainer.params, as the scan read it
        found = [set(names) for section in index.sections for key, names in section.nested if key == path[1]]
    else:
        return False
    return bool(found) and all(held & DECIDERS <= keys for held in found)
