"""Which Lightning class an expression is provably an instance of, for rule ``removed_members``.

Known only where the code shows it: a Trainer as rule ``trainer_properties`` proves one; an object a known one holds
(``trainer.fit_loop``, ``legacy_api.removed_members.HELD``); an instance made by a Lightning class
(``TensorBoardLogger(...)``); a parameter annotated with one (``logger: LightningLoggerBase``); ``self`` in a method of
a class deriving from one; a local variable every assignment of which gives it the same class. The answer is the
Lightning class's public path as the code names it (``pytorch_lightning.loggers.TensorBoardLogger``); anything else is
None, and nothing is reported on it.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

import libcst as cst

from codemods.frontends.python.qualnames import assigned_values, is_parameter
from codemods.rules._attribute_receivers import enclosing_class, one_assigned
from codemods.rules.trainer_properties import trainer_kind
from legacy_api.removed_members import HELD

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

TRAINER = "pytorch_lightning.Trainer"
#: How deep a chain of local variables is followed (``a = b; b = TensorBoardLogger(); a.close()``).
_DEPTH = 4


def class_of(ctx: FileContext, node: cst.BaseExpression, depth: int = 0) -> str | None:
    """The public path of the Lightning class ``node`` is an instance of, or None where the code does not show one."""
    if depth > _DEPTH:
        return None
    if isinstance(node, cst.Name | cst.Attribute) and trainer_kind(ctx, node) is True:
        return TRAINER
    if isinstance(node, cst.Attribute):
        owner = class_of(ctx, node.value, depth + 1)
        return HELD.get((owner, node.attr.value)) if owner is not None else None
    if isinstance(node, cst.Call):
        found = _lightning(ctx, node.func)
        if found is None and isinstance(node.func, cst.Name):
            local = module_class(ctx, node.func.value)
            return _local_base(ctx, local) if local is not None else None
        return found
    if isinstance(node, cst.Name):
        if node.value == "self":
            cls = enclosing_class(ctx)
            return None if cls is None else _base(ctx, cls)
        if is_parameter(node.value, ctx.scopes):
            return _annotated(ctx, node.value)
        return _assigned(ctx, node.value, depth)
    return None


def module_class(ctx: FileContext, name: str) -> ast.ClassDef | None:
    """The class this module defines at its top level under ``name`` (``dm = MNISTDataModule()`` in gan.py)."""
    found = [
        statement.node
        for statement in ctx.analysis.statements
        if statement.depth == 0 and isinstance(statement.node, ast.ClassDef) and statement.node.name == name
    ]
    return found[0] if len(found) == 1 else None


def _local_base(ctx: FileContext, cls: ast.ClassDef) -> str | None:
    """The one Lightning class among a module class's bases, by the qualified names the module's imports give."""
    found = set()
    for base in cls.bases:
        first, _, rest = ast.unparse(base).partition(".")
        resolved = ctx.analysis.resolve(first, ctx.scopes[:1]) if first.isidentifier() else None
        qualified = ".".join(filter(None, [resolved, rest])) if resolved else None
        if qualified and qualified.startswith("pytorch_lightning."):
            found.add(qualified)
    return found.pop() if len(found) == 1 else None


def instance_class(ctx: FileContext, node: cst.BaseExpression) -> ast.ClassDef | None:
    """The module class a local variable holds an instance of (``dm`` after ``dm = MNISTDataModule()``), if any."""
    if not isinstance(node, cst.Name) or node.value == "self" or is_parameter(node.value, ctx.scopes):
        return None
    values = assigned_values(node.value, ctx.scopes)
    classes = {
        id(local): local
        for value in values or ()
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
        for local in [module_class(ctx, value.func.id)]
        if local is not None
    }
    return next(iter(classes.values())) if len(classes) == 1 and len(classes) == len(values or ()) else None


def _lightning(ctx: FileContext, node: cst.BaseExpression) -> str | None:
    names = ctx.legacy_names(node)
    return names[0] if names and names[0].startswith("pytorch_lightning.") else None


def _base(ctx: FileContext, cls: cst.ClassDef) -> str | None:
    """The one Lightning class among ``cls``'s bases (``class Mine(pl.LightningModule)``)."""
    found = {_lightning(ctx, base.value) for base in cls.bases if base.keyword is None}
    found.discard(None)
    return found.pop() if len(found) == 1 else None


def _annotated(ctx: FileContext, name: str) -> str | None:
    function = next((s for s in reversed(ctx.statements) if isinstance(s, cst.FunctionDef)), None)
    if function is None:
        return None
    params = function.params
    for param in (*params.posonly_params, *params.params, *params.kwonly_params):
        if param.name.value == name and param.annotation is not None:
            annotation = param.annotation.annotation
            return _lightning(ctx, annotation) if isinstance(annotation, cst.Name | cst.Attribute) else None
    return None


def _assigned(ctx: FileContext, name: str, depth: int) -> str | None:
    return one_assigned(ctx, name, lambda expression: class_of(ctx, expression, depth + 1))
