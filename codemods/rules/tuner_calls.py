"""``trainer.tuner.lr_find(model, ...)`` -> ``Tuner(trainer).lr_find(model, ..., update_attr=False)``.

2.0 removed ``Trainer.tuner``; ``pytorch_lightning.tuner.Tuner(trainer)`` is the same object (1.5.10's ``Trainer``
built ``Tuner(self)`` for it), and its ``lr_find`` takes the same first three positional arguments (``model``,
``train_dataloaders``, ``val_dataloaders``) and the same keywords, with one default changed: ``update_attr`` is
``True`` from 2.0 on (it writes the suggested rate into the model's ``lr``/``learning_rate``), ``False`` in 1.5, so
the call says ``update_attr=False`` unless it passes its own. A call with a fourth positional argument (1.5's
``datamodule`` is 2.x's ``dataloaders`` there), a splat, or 1.5's deprecated ``train_dataloader=`` keeps the TODO of
rule ``removed_attributes``; so does ``scale_batch_size``, whose 2.x search shrinks the result by ``margin`` and caps it
at ``max_val``, which 1.5's did not.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.frontends.python.layout import append_argument
from codemods.plan.rule import Rule
from codemods.rules._attribute_receivers import kind_of

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

ID = "tuner_calls"
#: ``Tuner.lr_find``'s keywords in both 1.5.10 and 2.6.6 (checked with ``inspect.signature`` in the reference venvs).
_KEYWORDS = frozenset(
    {
        "model",
        "train_dataloaders",
        "val_dataloaders",
        "datamodule",
        "min_lr",
        "max_lr",
        "num_training",
        "mode",
        "early_stop_threshold",
        "update_attr",
    }
)


def _moves(ctx: FileContext, call: cst.Call) -> bool:
    if ctx.options.target_tuple < (2, 0):
        return False  # Trainer.tuner is there until 2.0
    func = call.func
    if not (isinstance(func, cst.Attribute) and func.attr.value == "lr_find"):
        return False
    holder = func.value
    if not (isinstance(holder, cst.Attribute) and holder.attr.value == "tuner"):
        return False
    if any(arg.star for arg in call.args) or sum(arg.keyword is None for arg in call.args) > 3:
        return False
    if any(arg.keyword is not None and arg.keyword.value not in _KEYWORDS for arg in call.args):
        return False
    return kind_of(ctx, holder.value) == "trainer"


def visit_call(ctx: FileContext, node: cst.Call, _: Any) -> None:
    if _moves(ctx, node):
        assert isinstance(node.func, cst.Attribute)
        ctx.claimed.add(id(node.func.value))  # rule removed_attributes: no TODO on trainer.tuner here


def leave_call(ctx: FileContext, original: cst.Call, updated: cst.Call) -> Any:
    func = original.func
    if not isinstance(func, cst.Attribute) or id(func.value) not in ctx.claimed or not _moves(ctx, original):
        return updated  # (other rules claim nodes too)
    new_func = updated.func
    if not (isinstance(new_func, cst.Attribute) and isinstance(new_func.value, cst.Attribute)):
        return updated
    trainer = new_func.value.value
    tuner = cst.Call(cst.Name("Tuner"), args=[cst.Arg(trainer)])
    args = list(updated.args)
    if not any(arg.keyword is not None and arg.keyword.value == "update_attr" for arg in args):
        tight = cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace(""))
        keep = cst.Arg(cst.Name("False"), keyword=cst.Name("update_attr"), equal=tight)
        args = append_argument(args, updated.whitespace_before_args, keep)
    ctx.add_import("pytorch_lightning.tuner", "Tuner")
    ctx.fix(
        ID,
        "trainer.tuner is gone in 2.0: Tuner(trainer).lr_find(...), with update_attr=False where the call sets none "
        "(2.x's default writes the suggested rate into the model; 1.5's did not)",
        original,
    )
    return updated.with_changes(func=new_func.with_changes(value=tuner), args=args)


RULE = Rule(
    id=ID,
    description="trainer.tuner.lr_find(...) becomes Tuner(trainer).lr_find(..., update_attr=False)",
    deprecated_in="2.0",
    handlers={"visit_Call": visit_call, "Call": leave_call},
    order=899,
    tokens=("pytorch_lightning",),
    visit=lambda: re.compile(r"\.\s*tuner\s*\.\s*lr_find\s*\("),
)
