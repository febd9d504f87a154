"""Trainer arguments later releases removed (``checkpoint_callback``, ``progress_bar_refresh_rate``,
``weights_summary``, ``resume_from_checkpoint``, ``auto_lr_find``, ...): renamed, dropped, or one TODO.

A migrated call that still passes one raises ``TypeError: Trainer.__init__() got an unexpected keyword argument``
on the target. The table (``legacy_api.removed_arguments``, each removal release read from the real packages)
says what each became: a value that meant the default is dropped, a flag that reads the same value takes its
place (``checkpoint_callback=False`` -> ``enable_checkpointing=False``, ``progress_bar_refresh_rate=0`` ->
``enable_progress_bar=False``, ``weights_summary=None`` -> ``enable_model_summary=False``,
``reload_dataloaders_every_epoch=True`` -> ``reload_dataloaders_every_n_epochs=1``), anything else gets one TODO
naming the replacement. It acts from the release that removed the argument.
"""

from __future__ import annotations

from codemods.plan import Plan, new
from codemods.rule import Rule
from legacy_api.removed_arguments import REMOVED_ARGUMENTS
from legacy_api.renames import version_tuple

ID = "removed_arguments"


def _same(a: object, b: object) -> bool:
    """Equal and of one type: ``True`` is not the count ``1``, nor ``0`` the flag ``False``."""
    return type(a) is type(b) and a == b


def step(plan: Plan) -> None:
    if plan.is_compat:
        return
    left: list[str] = []
    for row in REMOVED_ARGUMENTS:
        value = plan.get(row.name)
        if value is None or version_tuple(row.removed_in) > plan.target:
            continue
        known = value.known and not isinstance(value.lit, list | dict)
        if known and any(_same(value.lit, default) for default in row.defaults):
            plan.drop(row.name)
            plan.note(ID, f"dropped {row.name}={value.text}: the default (the argument is gone in {row.removed_in})")
            continue
        if row.renamed is not None and row.renamed not in plan:
            match = [spelled for lit, spelled in row.exact.items() if known and _same(value.lit, lit)]
            if match:
                spelled = match[0]
                plan.replace(row.name, [(row.renamed, new(spelled))])
                plan.note(ID, f"{row.name}={value.text} is {row.renamed}={spelled!r} (gone in {row.removed_in})")
                continue
            if not row.exact:  # the same value under a new name
                plan.replace(row.name, [(row.renamed, value)])
                plan.note(ID, f"{row.name}= is called {row.renamed}= (gone in {row.removed_in})")
                continue
        left.append(f"{row.name}={value.text} (gone in {row.removed_in}): {row.todo}")
    if left:
        # One TODO for the call: a 1.5 Trainer often passed several of them.
        plan.todo(ID, "; ".join(left))


RULE = Rule(
    id=ID,
    description="Trainer arguments later releases removed are renamed, dropped where they were the default, or a TODO",
    deprecated_in="1.5",
    scope="flags",
    step=step,
    order=85,
    tokens=tuple(row.name for row in REMOVED_ARGUMENTS),
)
