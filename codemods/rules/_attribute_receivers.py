"""What kind of Lightning object an expression provably is, for rule ``removed_attributes``.

A kind (``legacy_api.attributes.KINDS``) is known only where the code shows it: a Trainer as rule
``trainer_properties`` proves one (a ``trainer`` parameter, ``self.trainer``, a variable assigned from
``Trainer(...)``); an object the Trainer or another known object holds (``trainer.strategy``,
``trainer.training_type_plugin``, ``trainer._accelerator_connector``, ``trainer.strategy.precision_plugin``); a
parameter annotated with a Lightning class or an instance made by one (``plugin: DDPPlugin``, ``DDPPlugin(...)``);
``self`` in a method of a class deriving from one; and a local variable every assignment of which gives it one kind
(``conn = trainer._accelerator_connector``). Anything else is no kind: nothing is reported on what the code does not
show.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import TYPE_CHECKING

import libcst as cst

from codemods.frontends.python.qualnames import assigned_values, is_parameter
from codemods.rules._trainer_kind import enclosing_class, trainer_kind
from legacy_api.attributes import HELD, kind_of_class

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

#: How deep a chain of local variables is followed (``a = trainer.strategy; b = a; b.on_gpu``).
_DEPTH = 4


def kind_of(ctx: FileContext, node: cst.BaseExpression, depth: int = 0) -> str | None:
    """The kind of Lightning object ``node`` is, or None where the code does not show one."""
    if depth > _DEPTH:
        return None
    if isinstance(node, cst.Name | cst.Attribute) and trainer_kind(ctx, node) is True:
        return "trainer"
    if isinstance(node, cst.Attribute):
        owner = kind_of(ctx, node.value, depth + 1)
        return HELD.get((owner, node.attr.value)) if owner is not None else None
    if isinstance(node, cst.Call):
        return _class_kind(ctx, node.func)
    if isinstance(node, cst.Name):
        if node.value == "self":
            cls = enclosing_class(ctx)
            return None if cls is None else _bases_kind(ctx, cls)
        if is_parameter(node.value, ctx.scopes):
            return _annotated_kind(ctx, node.value)
        return _assigned_kind(ctx, node.value, depth)
    return None


def _class_kind(ctx: FileContext, node: cst.BaseExpression) -> str | None:
    """The kind the Lightning class ``node`` names makes (``DDPPlugin``, ``pl.Trainer``), through the imports."""
    name = ctx.qualified_name(node)
    return kind_of_class(name) if name is not None else None


def _bases_kind(ctx: FileContext, cls: cst.ClassDef) -> str | None:
    kinds = {_class_kind(ctx, base.value) for base in cls.bases if base.keyword is None}
    kinds.discard(None)
    return kinds.pop() if len(kinds) == 1 else None


def _annotated_kind(ctx: FileContext, name: str) -> str | None:
    """The kind a parameter's annotation names (``strategy: DDPPlugin``, ``trainer: "pl.Trainer"``)."""
    function = next((s for s in reversed(ctx.statements) if isinstance(s, cst.FunctionDef)), None)
    if function is None:
        return None
    params = function.params
    for param in (*params.posonly_params, *params.params, *params.kwonly_params):
        if param.name.value == name and param.annotation is not None:
            annotation = param.annotation.annotation
            if isinstance(annotation, cst.SimpleString):
                try:
                    annotation = cst.parse_expression(str(annotation.evaluated_value))
                except (cst.ParserSyntaxError, TypeError):
                    return None
            return _class_kind(ctx, annotation) if isinstance(annotation, cst.Name | cst.Attribute) else None
    return None


def one_assigned(ctx: FileContext, name: str, answer: Callable[[cst.BaseExpression], str | None]) -> str | None:
    """The one answer every ``name = value`` of the scope gives about ``name``'s value; None when they differ."""
    values = assigned_values(name, ctx.scopes)
    if not values:
        return None
    found = set()
    for value in values:
        try:
            expression = cst.parse_expression(ast.unparse(value))
        except cst.ParserSyntaxError:
            return None
        found.add(answer(expression))
    return found.pop() if len(found) == 1 else None


def _assigned_kind(ctx: FileContext, name: str, depth: int) -> str | None:
    """The one kind every ``name = value`` of the scope gives ``name`` (``conn = trainer._accelerator_connector``)."""
    return one_assigned(ctx, name, lambda expression: kind_of(ctx, expression, depth + 1))


def defined_in_class(ctx: FileContext, cls: cst.ClassDef) -> frozenset[str]:
    """The names a user's class defines itself: its methods and class attributes, and every ``self.<name> = ...``."""
    found = class_ast(ctx, cls)
    return names_defined(found) if found is not None else frozenset()


def class_ast(ctx: FileContext, cls: cst.ClassDef) -> ast.ClassDef | None:
    """The ``ast`` of a libcst class (its code parsed on its own), or None where that code does not parse alone."""
    try:
        tree = ast.parse(ctx.code(cls).strip())
    except SyntaxError:
        return None
    return tree.body[0] if tree.body and isinstance(tree.body[0], ast.ClassDef) else None


def names_defined(cls: ast.ClassDef) -> frozenset[str]:
    """What ``defined_in_class`` answers, for a class's ``ast``."""
    names: set[str] = set()
    for statement in cls.body:
        targets = statement.targets if isinstance(statement, ast.Assign) else [getattr(statement, "target", None)]
        names.update(target.id for target in targets if isinstance(target, ast.Name))
    for node in ast.walk(cls):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and _is_self(node.value):
            names.add(node.attr)
    return frozenset(names)


def _is_self(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "self"
