"""The one generic rename rule: every row of ``legacy_api.renames.RENAMES`` through qualified names.

Usages are rewritten in place (``DDPPlugin`` -> ``DDPStrategy``, ``pl.plugins.DDPPlugin`` ->
``pl.strategies.DDPStrategy``); imports go through libcst's ``AddImportsVisitor``/``RemoveImportsVisitor``,
except where the local name survives the rename (``... import DDPPlugin as P``, ``from compat import Runner``):
``RemoveImportsVisitor`` keeps an import whose name is still used, so those aliases are retargeted directly.
A row without a replacement leaves the code and adds a TODO.

This module is the hook table; the hooks are in ``rename_names`` (names in code), ``rename_imports`` (import
statements) and ``rename_quoted`` (strings that are type expressions).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.frontends.python import presets
from codemods.frontends.python.rename_imports import leave_import, leave_import_from, leave_statement_line
from codemods.frontends.python.rename_names import leave_attribute, leave_name, visit_attribute
from codemods.frontends.python.rename_quoted import leave_annotation, leave_cast
from codemods.plan.rule import Handler

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext


def leave_call(ctx: FileContext, original: cst.Call, updated: cst.Call) -> Any:
    """``typing.cast`` strings are renamed; a class renamed with preset arguments gets the ones not passed."""
    return presets.complete(ctx, original, leave_cast(ctx, original, updated))


HANDLERS: dict[str, Handler] = {
    "Name": leave_name,
    "Attribute": leave_attribute,
    "visit_Attribute": visit_attribute,
    "Annotation": leave_annotation,
    "visit_Call": presets.visit_call,
    "Call": leave_call,
    "ImportFrom": leave_import_from,
    "Import": leave_import,
    "SimpleStatementLine": leave_statement_line,
}
