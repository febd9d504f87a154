"""A field of a class that mirrors the Trainer's arguments (``@dataclass class TrainerConfig: gpus: int = 0``) whose
argument the target's Trainer no longer takes gets a TODO.

Projects type their Trainer section with such a class and pass it on with ``Trainer(**asdict(config))`` (a
``TypeError`` on 2.x for ``gpus``) or filter it through ``inspect.signature(Trainer.__init__)`` first
(pytorch_tabular): then 2.x drops ``auto_select_gpus`` or ``gpus`` without a word, and the run picks other devices.
The class is the project's API (its users set the field), so the tool does not rename it: the TODO names what
replaced the argument. A class counts as the index counts a schema (``codemods.project.scan_python``): it names a
device or strategy flag and another Trainer flag among its annotated fields.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.plan.rule import Rule
from codemods.project.prefilter import alternation
from codemods.project.scan_python import REMOVED_FIELDS, mirrors_trainer
from codemods.rules._hook_classes import owner_class
from legacy_api.removed_arguments import REMOVED_ARGUMENTS, refused_at

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

ID = "schema_fields"
#: The connector's flags and what replaced each (the rest: ``legacy_api.removed_arguments``' rows).
_DEVICE_FLAGS = {
    "gpus": "accelerator and devices",
    "tpu_cores": "accelerator and devices",
    "ipus": "accelerator and devices",
    "num_processes": "accelerator and devices",
    "distributed_backend": "strategy",
    "amp_backend": "precision (and plugins for apex)",
    "amp_level": "plugins (apex's opt level)",
    "auto_select_gpus": "devices (a list of free GPUs you pick, e.g. with lightning's find_usable_cuda_devices)",
    "replace_sampler_ddp": "use_distributed_sampler",
}


def _instead(name: str) -> str:
    row = next((row for row in REMOVED_ARGUMENTS if row.name == name), None)
    if row is not None:
        return f"{row.renamed}" if row.renamed else row.todo
    return _DEVICE_FLAGS.get(name, "")


def _names() -> tuple[str, ...]:
    return REMOVED_FIELDS


def _fields(cls: cst.ClassDef) -> set[str]:
    found = set()
    for statement in cls.body.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                    found.add(small.target.value)
    return found


def leave_ann_assign(ctx: FileContext, original: cst.AnnAssign, updated: cst.AnnAssign) -> Any:
    target = original.target
    if not isinstance(target, cst.Name) or target.value not in _names() or not refused_at(target.value, ctx.target):
        return updated
    cls = owner_class(ctx)
    if cls is None or not mirrors_trainer(_fields(cls)):
        return updated
    name = target.value
    ctx.todo(
        ID,
        f"{cls.name.value}.{name} mirrors Trainer({name}=), which Lightning {ctx.surface.release} no longer takes: "
        f"where the field reaches the Trainer (Trainer(**...) raises a TypeError; a config filtered through the "
        f"Trainer's signature loses it without a word), replace it by {_instead(name)}, with the configs that set it",
        original,
    )
    return updated


def _visit() -> re.Pattern[str]:
    # Led by the field's indentation (a class body), its names as a trie: re tries the pattern at every line only.
    return re.compile(r"^[ \t]+" + alternation(_names()) + r"[ \t]*:[ \t]*[\w\"'\[]", re.MULTILINE)


RULE = Rule(
    id=ID,
    description="a field of a class mirroring the Trainer's arguments (a dataclass schema) whose argument the "
    "target's Trainer lacks is flagged",
    deprecated_in="1.7",
    handlers={"AnnAssign": leave_ann_assign},
    tokens=_names(),
    visit=_visit,
)
