"""``DDPPlugin.__name__`` where the rename rules rename ``DDPPlugin``: a TODO, because the value changes.

A name the renames table rewrites (``DDPPlugin`` -> ``DDPStrategy``) is the same class under its new name, but a
string built from the class's own name is not the same string: ``f"pytorch_lightning::{DDPPlugin.__name__}"`` was
``"pytorch_lightning::DDPPlugin"`` on 1.5 and is ``"pytorch_lightning::DDPStrategy"`` once the name is rewritten, so
a registry key, a saved config or a log line built from it changes without a word. The rename stays (the class is
the right one); the TODO says what the name reads now.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.plan.resolve import resolve
from codemods.plan.rule import Rule

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

ID = "renamed_class_names"
_NAME_ATTRIBUTES = frozenset({"__name__", "__qualname__"})


def leave_attribute(ctx: FileContext, original: cst.Attribute, updated: cst.Attribute) -> Any:
    if original.attr.value not in _NAME_ATTRIBUTES or ctx.in_import:
        return updated
    old = ctx.qualified_name(original.value)
    found = resolve(old, ctx.target) if old is not None else None
    if found is None or found.new is None:
        return updated
    before, after = found.old.rpartition(".")[2], found.new.rpartition(".")[2]
    if before != after:
        ctx.todo(
            ID,
            f"{before}.{original.attr.value} is {after!r} once the class is spelled {after} (it was {before!r} on "
            "1.5): a key, a saved config or a message built from it changes; write the old name where that matters",
            original,
        )
    return updated


def _visit() -> re.Pattern[str]:
    return re.compile(r"\.__(?:qual)?name__\b")


RULE = Rule(
    id=ID,
    description="__name__/__qualname__ of a class the renames rewrite is flagged: the string it reads changes",
    deprecated_in="1.5",
    handlers={"Attribute": leave_attribute},
    tokens=(".__name__", ".__qualname__"),
    visit=_visit,
)
