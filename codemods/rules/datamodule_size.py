"""``dm.size()`` -> ``dm.dims`` (``dm.size(0)`` -> ``dm.dims[0]``) where the project's data module gives ``dims`` a
value as it is built.

1.5.10's ``LightningDataModule.size(dim=None)`` returned ``self.dims`` (or ``self.dims[dim]``), a property over
``self._dims`` that the subclass's ``self.dims = (1, 28, 28)`` set (read in its ``core/datamodule.py``); 1.7 removed
``size`` and the property, so on 2.x ``self.dims = ...`` makes a plain attribute, which ``dm.dims`` reads as 1.5's
``size()`` did. The class is this module's, setting it in its own ``__init__``, or any of the project's whose
instances hold ``dims`` from their construction on, through a class attribute or a base class in another file
(``codemods.project.datamodule_dims``: bolts' ``dm = dm_cls.from_argparse_args(args)`` with ``dm_cls =
CIFAR10DataModule``). Where only ``setup()`` sets it (1.5 returned ``()`` before), or nothing shows the class, rule
``removed_members`` keeps its TODO.
"""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.plan.rule import Rule
from codemods.rules._attribute_receivers import class_ast
from codemods.rules._member_receivers import class_of, classes_made, instance_class
from codemods.rules._trainer_kind import enclosing_class
from legacy_api.removed_members import derives

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

ID = "datamodule_size"
_DM = "pytorch_lightning.LightningDataModule"


def _sets_dims(cls: ast.ClassDef) -> bool:
    """Whether the class's own ``__init__`` assigns ``self.dims`` and the class defines no ``size`` of its own."""
    if any(isinstance(node, ast.FunctionDef) and node.name == "size" for node in cls.body):
        return False
    init = next((node for node in cls.body if isinstance(node, ast.FunctionDef) and node.name == "__init__"), None)
    return init is not None and any(
        isinstance(node, ast.Attribute)
        and isinstance(node.ctx, ast.Store)
        and node.attr == "dims"
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
        for node in ast.walk(init)
    )


def _local(ctx: FileContext, receiver: cst.BaseExpression) -> ast.ClassDef | None:
    if isinstance(receiver, cst.Name) and receiver.value == "self":
        mine = enclosing_class(ctx)
        return class_ast(ctx, mine) if mine is not None else None
    return instance_class(ctx, receiver)


def _moves(ctx: FileContext, call: cst.Call) -> bool:
    func = call.func
    if not (isinstance(func, cst.Attribute) and func.attr.value == "size") or len(call.args) > 1:
        return False
    if any(arg.keyword is not None or arg.star for arg in call.args):
        return False
    made = classes_made(ctx, func.value)
    if made and made <= ctx.options.dims_classes:
        return True  # the project's data modules that hold dims from the start (codemods.project.datamodule_dims)
    cls = class_of(ctx, func.value)
    local = _local(ctx, func.value) if cls is not None and derives(cls, _DM) else None
    return local is not None and _sets_dims(local)


def visit_call(ctx: FileContext, node: cst.Call, _: Any) -> None:
    if _moves(ctx, node):
        ctx.claimed.add(id(node.func))  # rule removed_members: no TODO on what this call becomes


def leave_call(ctx: FileContext, original: cst.Call, updated: cst.Call) -> Any:
    if id(original.func) not in ctx.claimed or not isinstance(updated.func, cst.Attribute):
        return updated
    if not _moves(ctx, original):
        return updated
    dims = cst.Attribute(value=updated.func.value, attr=cst.Name("dims"))
    ctx.fix(ID, "LightningDataModule.size() is gone since 1.7: it returned self.dims, which this class sets", original)
    if not updated.args:
        return dims
    return cst.Subscript(value=dims, slice=[cst.SubscriptElement(slice=cst.Index(value=updated.args[0].value))])


RULE = Rule(
    id=ID,
    description="LightningDataModule.size() becomes the dims attribute the project's data module sets itself",
    deprecated_in="1.5",
    handlers={"visit_Call": visit_call, "Call": leave_call},
    order=904,
    tokens=("pytorch_lightning",),
    visit=lambda: re.compile(r"\.\s*size\s*\("),
)
