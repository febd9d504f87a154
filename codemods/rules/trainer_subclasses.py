"""Calls of a project Trainer subclass whose own ``__init__`` takes a migrated flag are held with a TODO.

``class MyTrainer(pl.Trainer): def __init__(self, gpus=1, **kwargs)`` decides itself what ``gpus`` does (and so
does an ``__init__`` that reads ``kwargs["gpus"]``): rewriting ``MyTrainer(gpus=2)`` into ``accelerator="gpu",
devices=2`` would hand it other arguments than it reads. Such a call, when the flag rules would change one of
its flags were it a ``Trainer(...)`` (a trial run of them), keeps its code and gets one TODO naming the class,
where it is defined and those flags. The other subclasses, and ``flash.Trainer``, get the flag rules like
``Trainer(...)`` (found by ``codemods.project.trainer_classes``; the Python front end asks
``FileContext.trainer_class``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.plan.rule import Rule

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

ID = "trainer_subclasses"


def leave_call(ctx: FileContext, original: cst.Call, updated: cst.Call) -> Any:
    func = original.func
    if isinstance(func, cst.Attribute) and func.attr.value == "from_argparse_args":
        func = func.value
    last = func.attr if isinstance(func, cst.Attribute) else func if isinstance(func, cst.Name) else None
    held = {name: (where, own) for name, where, own in ctx.options.held_trainers}
    if last is None or last.value not in held or ctx.qualified_name(func) is not None:
        return updated
    where, own = held[last.value]
    passed = ctx.flags_to_migrate(original)
    if passed:
        flags = ", ".join(f"{flag}=" for flag in passed)
        ctx.todo(
            ID,
            f"{last.value}.__init__ ({where}) handles {', '.join(own)} itself, so {flags} here is left as it is: "
            "migrate the class first; once its __init__ names none of them, a new run migrates this call",
            original,
        )
    return updated


RULE = Rule(
    id=ID,
    description="calls of a project Trainer subclass whose __init__ takes a migrated flag itself get a TODO "
    "(the others, and flash.Trainer, are migrated like Trainer)",
    deprecated_in="1.5",
    handlers={"Call": leave_call},
    tokens=("Trainer",),
)
