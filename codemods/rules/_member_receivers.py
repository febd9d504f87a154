"""Which Lightning class an expression is provably an instance of, for rule ``removed_members``.

Known only where the code shows it: a Trainer as rule ``trainer_properties`` proves one; an object a known one holds
(``trainer.fit_loop``, ``legacy_api.removed_members.HELD``); an instance made by a Lightning class
(``TensorBoardLogger(...)``), by a class of the module or of the project deriving from one
(``CIFAR10DataModule(...)``, ``Options.hook_classes``), or by such a class's ``from_argparse_args``; a parameter
annotated with one (``logger: LightningLoggerBase``); ``self`` in a method of a class deriving from one; a local
variable every assignment of which gives it the same class (``dm_cls = CIFAR10DataModule`` in each branch, then ``dm
= dm_cls.from_argparse_args(args)``). The answer is the Lightning class's public path as the code names it
(``pytorch_lightning.loggers.TensorBoardLogger``); anything else is None, and nothing is reported on it.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

import libcst as cst

from codemods.frontends.python.qualnames import assigned_values, is_parameter
from codemods.rules._attribute_receivers import one_assigned
from codemods.rules._trainer_kind import enclosing_class, trainer_kind
from legacy_api.removed_members import HELD, derives

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

TRAINER = "pytorch_lightning.Trainer"
_MODULE = "pytorch_lightning.LightningModule"
#: How deep a chain of local variables is followed (``a = b; b = TensorBoardLogger(); a.close()``).
_DEPTH = 4
#: The public path of each hook base a project class derives from (``Options.hook_classes``' short names).
_HOOK_PATHS = {
    "LightningModule": "pytorch_lightning.LightningModule",
    "LightningDataModule": "pytorch_lightning.LightningDataModule",
    "Callback": "pytorch_lightning.Callback",
}
#: 1.x classmethods that return ``cls(...)``: their call is an instance of the class they are called on.
_CONSTRUCTORS = frozenset({"from_argparse_args"})


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
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in _CONSTRUCTORS:
            return class_named(ctx, func.value, depth + 1)
        found = _lightning(ctx, func)
        if found is None and isinstance(func, cst.Name):
            return class_named(ctx, func, depth + 1)
        return found
    if isinstance(node, cst.Name):
        if node.value == "self":
            cls = enclosing_class(ctx)
            return None if cls is None else _base(ctx, cls)
        if is_parameter(node.value, ctx.scopes):
            return _annotated(ctx, node.value)
        return _assigned(ctx, node.value, depth)
    return None


def trainer_or_module(ctx: FileContext, node: cst.BaseExpression) -> bool:
    """Whether ``node`` is a Trainer or a LightningModule as the code shows it: the two objects whose ``.logger`` was
    1.5's ``LoggerCollection`` for a list of loggers, and whose ``.loggers`` lists them from 1.6 on."""
    if trainer_kind(ctx, node) is True:
        return True
    cls = class_of(ctx, node)
    return cls is not None and derives(cls, _MODULE)


def class_named(ctx: FileContext, node: cst.BaseExpression, depth: int = 0) -> str | None:
    """The public path of the Lightning class ``node`` names as a class: one of Lightning's, a class of this module
    on a Lightning base, one of the project's own hook classes imported here (its Lightning base), or a local variable
    every assignment of which names one of those."""
    if depth > _DEPTH:
        return None
    found = _lightning(ctx, node)
    if found is not None or not isinstance(node, cst.Name):
        return found
    local = module_class(ctx, node.value)
    if local is not None:
        return _local_base(ctx, local)
    project = dict(ctx.options.hook_classes).get(node.value)
    if project is not None and _imported(ctx, node.value):
        return _HOOK_PATHS.get(project)
    if is_parameter(node.value, ctx.scopes):
        return None
    return one_assigned(ctx, node.value, lambda expression: class_named(ctx, expression, depth + 1))


def _imported(ctx: FileContext, name: str) -> bool:
    """Whether the scope that binds ``name`` binds it other than by assignment or as a parameter (an import: a
    function may import the project's classes itself, as bolts' ``cli_main`` does)."""
    for index in range(len(ctx.scopes) - 1, -1, -1):
        scope = ctx.scopes[index]
        if scope.kind == "class" and index != len(ctx.scopes) - 1:
            continue
        if name in scope.bound or name in scope.imports:
            return name not in scope.values and name not in scope.params and not scope.stars
    return False


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


def classes_made(ctx: FileContext, receiver: cst.BaseExpression) -> frozenset[str]:
    """The names of the classes ``receiver`` may be an instance of, where the code shows each (``self`` in a method;
    ``dm`` after ``dm = CIFAR10DataModule(...)`` or ``dm = dm_cls.from_argparse_args(args)`` with ``dm_cls = X`` in
    every branch); empty where it does not."""
    if isinstance(receiver, cst.Name) and receiver.value == "self":
        mine = enclosing_class(ctx)
        return frozenset({mine.name.value}) if mine is not None else frozenset()
    if not isinstance(receiver, cst.Name) or is_parameter(receiver.value, ctx.scopes):
        return frozenset()
    values = assigned_values(receiver.value, ctx.scopes)
    if not values:
        return frozenset()
    found: set[str] = set()
    for value in values:
        if not isinstance(value, ast.Call):
            return frozenset()
        func = value.func
        if isinstance(func, ast.Attribute) and func.attr in _CONSTRUCTORS:
            func = func.value
        named = class_names(ctx, func, 0)
        if not named:
            return frozenset()
        found |= named
    return frozenset(found)


def class_names(ctx: FileContext, node: ast.expr, depth: int) -> frozenset[str]:
    """The class names ``node`` may name: an imported or module-level name, or a local variable every assignment of
    which names one (``dm_cls = MNISTDataModule``)."""
    if not isinstance(node, ast.Name) or depth > 4 or is_parameter(node.id, ctx.scopes):
        return frozenset()
    values = assigned_values(node.id, ctx.scopes)
    if values is None:
        return frozenset({node.id}) if _imported(ctx, node.id) or module_class(ctx, node.id) else frozenset()
    found: set[str] = set()
    for value in values:
        named = class_names(ctx, value, depth + 1)
        if not named:
            return frozenset()
        found |= named
    return frozenset(found)
