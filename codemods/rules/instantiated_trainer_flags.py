"""A Trainer flag the target refuses, passed next to a config that Hydra instantiates into the Trainer, gets a TODO.

``instantiate(cfg.trainer, gpus=gpus, logger=loggers)`` (``hydra.utils.instantiate``, or ``call``) builds the Trainer
the config's ``_target_`` names, with the keywords on top of the config's keys: 2.x raises a ``TypeError`` for
``gpus=`` there as for ``Trainer(gpus=...)``. The config is migrated with the YAML front end; the keywords are not a
Trainer call the flag rules rebuild (the values merge with a config this file cannot see), so each refused one gets a
TODO naming what to pass instead, and ``--check`` fails until it is done. Only where the first argument is a config's
Trainer section (``cfg.trainer``, or a section the project passes to a Trainer under another key).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.plan.rule import Rule
from codemods.rules._config_chains import key_path
from legacy_api.removed_arguments import REMOVED_ARGUMENTS, refused_at
from legacy_api.renames import DEVICE_FLAGS

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

ID = "instantiated_trainer_flags"
#: Hydra's factories as a file spells them (the import analysis follows Lightning's names only); the first argument
#: being a Trainer section is what makes the call one that builds a Trainer.
_FACTORIES = frozenset({"instantiate", "call"})
#: What to pass instead of a refused flag that no removed-argument row describes.
_INSTEAD = {
    **{
        flag: f'accelerator="{accelerator}" and devices= (0 or None chose the CPU: accelerator="cpu")'
        for flag, accelerator in DEVICE_FLAGS.items()
    },
    "distributed_backend": "strategy=",
    "amp_backend": "precision= (native AMP: precision='16-mixed'; apex is gone in 2.0)",
    "amp_level": "precision= (native AMP: precision='16-mixed'; apex is gone in 2.0)",
}


def _instead(flag: str) -> str:
    row = next((row for row in REMOVED_ARGUMENTS if row.name == flag), None)
    if row is not None:
        return f"{row.renamed}=" if row.renamed else row.todo
    return _INSTEAD.get(flag, "the flag that replaced it (MIGRATION.md)")


def _trainer_section(ctx: FileContext, node: cst.BaseExpression) -> bool:
    path = key_path(node)
    if not path or len(path) < 2:
        return False
    sections = getattr(ctx.options.project, "section_paths", None)
    others = sections() if callable(sections) else frozenset()
    return path[-1] == "trainer" or any(tuple(path[-len(other) :]) == other for other in others)


def leave_call(ctx: FileContext, original: cst.Call, updated: cst.Call) -> Any:
    if ctx.code(original.func).rpartition(".")[2] not in _FACTORIES or not original.args:
        return updated
    first = original.args[0]
    if first.keyword is not None or first.star or not _trainer_section(ctx, first.value):
        return updated
    for arg in original.args[1:]:
        if arg.keyword is None or not refused_at(arg.keyword.value, ctx.target):
            continue
        flag = arg.keyword.value
        ctx.todo(
            ID,
            f"{flag}= goes to the Trainer that {ctx.code(original.func)}({ctx.code(first.value)}) builds, and "
            f"Lightning "
            f"{ctx.options.target} refuses it (a TypeError): pass {_instead(flag)} instead",
            arg,
        )
    return updated


def _visit() -> re.Pattern[str]:
    return re.compile(r"\b(?:instantiate|call)\s*\(")


RULE = Rule(
    id=ID,
    description="a Trainer flag the target refuses, passed to hydra.utils.instantiate(cfg.trainer, ...), gets a TODO",
    deprecated_in="2.0",
    handlers={"Call": leave_call},
    tokens=("instantiate",),
    visit=_visit,
)
