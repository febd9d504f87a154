"""Lightning 1.5 Trainer keyword values -> Lightning 2.x keyword values: the one translation, as data.

:func:`translate` receives the *values* of a 1.5 ``Trainer(...)`` call (literals, live objects, or instances in the
reference-case encoding ``{"__class__": name, "args": [...], "kwargs": {...}}``) and returns the 2.x keyword
arguments, one :class:`Use` per legacy flag or name it rewrote (what the user wrote, its replacement, the
``migrate-trainer`` rule that rewrites it) and, where the flags ask for what 2.x removed or what 1.5 refused too,
the error to raise. It reads no hardware: like the codemod's output it is the same on every machine.

``compat.lightning`` calls it at run time; ``migrate-trainer``'s flag rules (``codemods/rules``) make the same
rewrites in source, and the steps here run in the rules' order with the rules' ids, so the two cannot drift apart
unnoticed: ``tests/parity/test_translate_agrees.py`` checks every recorded case whose migration left no TODO, in a
script and in a test suite (``test_suite``: :mod:`legacy_api.launch_policy`). Where the codemod leaves a TODO, this
translation still decides, since a running program cannot wait for a person: as 1.5 did, or with the error, and
always so that the shim selects what the migrated code selects on the same 2.x (``tests/parity/
test_compat_lightning.py`` requires it on every recorded case): where the TODO leaves a call that 2.x runs, the
flags go to 2.x as written (``Use.rewrites`` False: the warning says the rule only marks it).

A live object is read by its class names (its MRO), never imported; an encoded instance is renamed through the
renames table (``DDPSpawnPlugin`` -> ``DDPStrategy(start_method="spawn")``), a live one is already the 2.x class.
Standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from legacy_api._translate_devices import EARLY_STEPS
from legacy_api._translate_late import LATE_STEPS, class_rows, renamed
from legacy_api._translate_plan import (
    CHANGED_MEANING,
    PLUGIN_PRECISION_ARGS,
    REMOVED_STRATEGIES,
    Call,
    Plan,
    Stop,
    Translation,
    Use,
    class_names,
    encoded,
    is_strategy,
    plugin_precision,
    precision_2x,
)

#: Passes over the translation's own result: the codemod settles its rewrite the same way (a second run of
#: migrate-trainer changes nothing), e.g. ``accelerator="tpu_spawn"`` -> ``strategy="xla"`` next to TPU devices,
#: which the next pass drops as 1.5 did for any strategy name next to TPU cores.
ROUNDS = 4


def translate(kwargs: Mapping[str, Any], test_suite: bool = False) -> Translation:
    """The 2.x keyword arguments for the 1.5 keyword values ``kwargs`` (see the module docstring); ``test_suite``:
    pytest runs the program, so several devices 1.5 spawned keep ``ddp_spawn`` (:mod:`legacy_api.launch_policy`)."""
    plan = Plan(kwargs, test_suite)
    try:
        for index in range(ROUNDS):
            before = dict(plan.flags)
            if index:
                plan.origin = {key: "explicit" for key in plan.flags}  # a later pass reads the flags as written
            for step in (*EARLY_STEPS, *LATE_STEPS):
                step(plan)
            if plan.flags == before:
                break
    except Stop as stop:
        return Translation(plan.flags, _unique(plan.uses), str(stop), stop.rule, stop.removed)
    return Translation(plan.flags, _unique(plan.uses))


def _unique(uses: list[Use]) -> tuple[Use, ...]:
    return tuple(dict.fromkeys(uses))


def class_fate(name: str) -> tuple[str | None, dict[str, Any], str, str] | None:
    """What 2.x calls the 1.x/2.x class ``name`` (by the renames table, rows followed to the end): (new class name
    or None when 2.x removed it, preset keyword arguments, the rule of the last row, its note); None: not renamed."""
    rows = class_rows()
    if name not in rows:
        return None
    preset: dict[str, Any] = {}
    seen = {name}
    current: str | None = name
    rule = note = ""
    while current in rows:
        new, more, rule, note = rows[current]
        preset.update(dict(more))
        current = new
        if current is None or current in seen:
            break
        seen.add(current)
    return current, preset, rule, note


def rename_instance(value: Any) -> tuple[Any, str | None]:
    """An encoded instance under its 2.x class name, and the error when 2.x removed the class (else None)."""
    try:
        return renamed(value), None
    except Stop as stop:
        return value, str(stop)


__all__ = [
    "CHANGED_MEANING",
    "PLUGIN_PRECISION_ARGS",
    "REMOVED_STRATEGIES",
    "Call",
    "Translation",
    "Use",
    "class_fate",
    "class_names",
    "encoded",
    "is_strategy",
    "plugin_precision",
    "precision_2x",
    "rename_instance",
    "translate",
]
