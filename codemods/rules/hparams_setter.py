"""``self.hparams = hparams`` in a LightningModule's ``__init__`` becomes ``self.save_hyperparameters(hparams,
logger=False)``.

1.1 deprecated the ``hparams`` setter and 1.3 removed it (the 1.2.10 setter's warning: "Replace the assignment
``self.hparams = hparams`` with ``self.save_hyperparameters()``"); on every later release the assignment raises
AttributeError as the module is built. What the 1.2.10 setter did, ``save_hyperparameters`` given that one object
does on 2.6.6 (both read in the packages): ``_set_hparams`` (a dict becomes an AttributeDict, an argparse Namespace
its ``vars``), and the name of the ``__init__`` argument that holds it as ``_hparams_name``, which
``load_from_checkpoint`` passes the saved values back under. ``logger=False``: 2.x would otherwise log the values at
the start of fit (and raise where a data module saved the same keys with other values), where 1.2's trainer logged
the empty ``hparams_initial`` the setter left; 2.x still keeps a copy there. An assignment in another method gets a
TODO (what ``save_hyperparameters`` records of ``__init__``'s arguments is read from its caller's frame). Left alone:
a literal value (``save_hyperparameters("x")`` would name an argument), a class that defines ``hparams`` itself, and
any class this run cannot prove a LightningModule.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.plan.rule import Rule
from codemods.rules._hook_classes import is_lightning_module

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

ID = "hparams_setter"
_EQUAL = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))
_LITERALS = (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString, cst.Integer, cst.Float, cst.Imaginary)


def _is_self_hparams(node: cst.BaseExpression) -> bool:
    return (
        isinstance(node, cst.Attribute)
        and node.attr.value == "hparams"
        and isinstance(node.value, cst.Name)
        and node.value.value == "self"
    )


def _method_owner(ctx: FileContext) -> tuple[cst.ClassDef, str] | None:
    """(the class, the method) whose body holds the statement being left (directly or in a nested block)."""
    statements = ctx.statements
    for index in range(len(statements) - 1, 0, -1):
        node = statements[index]
        if isinstance(node, cst.FunctionDef):
            owner = statements[index - 1]
            return (owner, node.name.value) if isinstance(owner, cst.ClassDef) else None
    return None


def _defines_hparams(cls: cst.ClassDef) -> bool:
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    for item in body:
        if isinstance(item, cst.FunctionDef) and item.name.value == "hparams":
            return True
        if isinstance(item, cst.SimpleStatementLine):
            for small in item.body:
                targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else []
                targets += [small.target] if isinstance(small, cst.AnnAssign) else []
                if any(isinstance(t, cst.Name) and t.value == "hparams" for t in targets):
                    return True
    return False


def leave_assign(ctx: FileContext, original: cst.Assign, updated: cst.Assign) -> Any:
    if len(original.targets) != 1 or not _is_self_hparams(original.targets[0].target):
        return updated
    if isinstance(original.value, _LITERALS) or not updated.deep_equals(original):
        return updated
    found = _method_owner(ctx)
    if found is None or _defines_hparams(found[0]) or not is_lightning_module(ctx, found[0]):
        return updated
    value = ctx.code(original.value)
    if found[1] != "__init__":
        ctx.todo(
            ID,
            f"self.hparams = {value} raises AttributeError since 1.3 (the setter was removed): save the "
            "hyperparameters in __init__ (self.save_hyperparameters(...)) and update self.hparams in place here",
            original,
        )
        return updated
    ctx.fix(
        ID,
        f"self.hparams = {value} -> self.save_hyperparameters({value}, logger=False) (the hparams setter was "
        "deprecated in 1.1 and removed in 1.3)",
        original,
    )
    call = cst.Call(
        func=cst.Attribute(value=cst.Name("self"), attr=cst.Name("save_hyperparameters")),
        args=[
            cst.Arg(value=updated.value),
            cst.Arg(value=cst.Name("False"), keyword=cst.Name("logger"), equal=_EQUAL),
        ],
    )
    return cst.Expr(value=call, semicolon=updated.semicolon)


def _visit() -> re.Pattern[str]:
    return re.compile(r"\bself\.hparams[ \t]*=(?!=)")


RULE = Rule(
    id=ID,
    description="self.hparams = x in a LightningModule's __init__ becomes self.save_hyperparameters(x, logger=False) "
    "(the setter was removed in 1.3)",
    deprecated_in="1.1",
    handlers={"Assign": leave_assign},
    tokens=("self.hparams",),
    visit=_visit,
)
