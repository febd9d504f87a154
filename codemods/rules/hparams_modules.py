"""``self.save_hyperparameters()`` in a LightningModule whose ``__init__`` takes an ``nn.Module``: a TODO, because the
checkpoint then cannot be loaded on the target's stack without an edit.

1.x projects passed sub-networks to the module (``def __init__(self, net: torch.nn.Module)``, lightning-hydra-template)
and saved every argument as a hyperparameter, the network included (pickled into the checkpoint). Lightning 2.x
loads checkpoints through torch with ``weights_only`` left to torch (``None``: 2.6.6's ``cloud_io._load``), and
torch 2.6 made that ``True``: ``trainer.test(ckpt_path="best")`` and ``load_from_checkpoint`` then refuse the
pickled module (``UnpicklingError: Weights only load failed``). Lightning 2.x warns about it at
``save_hyperparameters`` time too. No rewrite: ``ignore=["net"]`` changes what loading needs (the network passed
again), ``weights_only=False`` trusts the file; a person picks one.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.plan.rule import Rule
from codemods.rules._hook_classes import base_of, project_base_of

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

ID = "hparams_modules"


def _init_and_class(ctx: FileContext) -> tuple[cst.FunctionDef, cst.ClassDef] | None:
    statements = ctx.statements
    for index in range(len(statements) - 1, 0, -1):
        function = statements[index]
        if isinstance(function, cst.FunctionDef):
            cls = statements[index - 1]
            if function.name.value != "__init__" or not isinstance(cls, cst.ClassDef):
                return None
            return function, cls
    return None


def _strings(node: cst.BaseExpression) -> set[str] | None:
    """The names an ``ignore=``/positional argument lists; None when the code does not show them."""
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return {value} if isinstance(value, str) else None
    if isinstance(node, cst.List | cst.Tuple | cst.Set):
        found: set[str] = set()
        for element in node.elements:
            names = _strings(element.value)
            if names is None:
                return None
            found |= names
        return found
    return None


def _modules(ctx: FileContext, function: cst.FunctionDef) -> list[str]:
    """The parameters annotated as a torch module (``net: torch.nn.Module``, ``Optional[nn.Module]``)."""
    params = function.params
    return [
        param.name.value
        for param in (*params.posonly_params, *params.params, *params.kwonly_params)
        if param.annotation is not None
        and re.search(r"(?<![\w.])(?:torch\.)?nn\.Module\b", ctx.code(param.annotation.annotation))
    ]


def leave_call(ctx: FileContext, original: cst.Call, updated: cst.Call) -> Any:
    func = original.func
    if ctx.target < (2, 0) or not (
        isinstance(func, cst.Attribute)
        and func.attr.value == "save_hyperparameters"
        and isinstance(func.value, cst.Name)
        and func.value.value == "self"
    ):
        return updated
    found = _init_and_class(ctx)
    if found is None:
        return updated
    function, cls = found
    through = project_base_of(ctx, cls)
    if (base_of(ctx, cls) or (through[0] if through is not None else None)) != "LightningModule":
        return updated
    saved: set[str] | None = None  # every argument of __init__
    ignored: set[str] = set()
    for arg in original.args:
        names = _strings(arg.value)
        if arg.keyword is not None and arg.keyword.value == "ignore":
            if names is None:
                return updated  # the code does not show what it leaves out
            ignored |= names
        elif arg.keyword is None:
            if isinstance(arg.value, cst.SimpleString) and names is not None:
                saved = (saved or set()) | names
            else:
                return updated  # save_hyperparameters(hparams): a mapping, not the arguments
    modules = [name for name in _modules(ctx, function) if name not in ignored and (saved is None or name in saved)]
    if modules:
        listed = ", ".join(modules)
        ctx.todo(
            ID,
            f"the hyperparameters saved here hold {listed} (an nn.Module, pickled into every checkpoint): Lightning "
            f"{ctx.surface.release} loads checkpoints with torch's weights_only default (True since torch 2.6), so "
            f"trainer.test(ckpt_path=...)/load_from_checkpoint refuse it: save_hyperparameters(ignore={modules!r}) "
            "and pass it again when loading, or pass weights_only=False for checkpoints you trust",
            original,
        )
    return updated


def _visit() -> re.Pattern[str]:
    return re.compile(r"\.save_hyperparameters\s*\(")


RULE = Rule(
    id=ID,
    description="save_hyperparameters() of a LightningModule whose __init__ takes an nn.Module is flagged: the "
    "target's checkpoints load with torch's weights_only default, which refuses the pickled module",
    deprecated_in="2.0",
    handlers={"Call": leave_call},
    tokens=("save_hyperparameters",),
    visit=_visit,
)
