"""Whether a LightningModule's ``training_epoch_end``/``validation_epoch_end``/``test_epoch_end`` can be rewritten
exactly (rule ``epoch_end_hooks``), and the table of what each becomes.

What 1.x handed those hooks, read in 1.5.10's loops: the outputs of every step of the epoch, in order, except the
ones that were None (evaluation) or empty (training: a step that returned None, or a manual-optimization step that
returned nothing); for training, the output made a dict (``{"loss": loss.detach().clone(), **extra}``, the extra
values' tensors detached too, with a deprecation warning), for evaluation the step's value as it was. 2.x hands
the same per-step value to the module's own ``on_*_batch_end`` hook (2.6.6: ``ClosureResult.asdict()``, which no
longer detaches the extras, and the evaluation step's output), so a batch-end hook that keeps it reproduces 1.x's
list exactly. Where 1.x's list had another shape the rewrite would not be exact, and the hook keeps its TODO:
several dataloaders (a list per dataloader), several optimizers or truncated backprop (a list per optimizer or
split), a ``*_step_end`` (its output, not the step's, was collected).
"""

from __future__ import annotations

import ast
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.rules._epoch_end_supers import dropped_calls, without_empty_supers

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext


@dataclass(frozen=True)
class EpochEnd:
    """One removed epoch-end hook and what 2.x calls instead."""

    hook: str
    successor: str
    step: str
    #: The module hook 2.x passes each step's output to, with the parameters 2.6.6 declares.
    batch_end: str
    batch_end_parameters: str
    #: The list the module now owns (the upgrade guide's name).
    attribute: str
    training: bool


EPOCH_ENDS: dict[str, EpochEnd] = {
    row.hook: row
    for row in (
        EpochEnd(
            "training_epoch_end",
            "on_train_epoch_end",
            "training_step",
            "on_train_batch_end",
            "outputs, batch, batch_idx",
            "training_step_outputs",
            True,
        ),
        EpochEnd(
            "validation_epoch_end",
            "on_validation_epoch_end",
            "validation_step",
            "on_validation_batch_end",
            "outputs, batch, batch_idx, dataloader_idx=0",
            "validation_step_outputs",
            False,
        ),
        EpochEnd(
            "test_epoch_end",
            "on_test_epoch_end",
            "test_step",
            "on_test_batch_end",
            "outputs, batch, batch_idx, dataloader_idx=0",
            "test_step_outputs",
            False,
        ),
    )
}


def methods(cls: cst.ClassDef) -> dict[str, cst.FunctionDef]:
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    return {node.name.value: node for node in body if isinstance(node, cst.FunctionDef)}


def parameter(node: cst.FunctionDef) -> str | None:
    """The name of the outputs parameter of ``def hook(self, outputs)``; None for any other signature."""
    params = node.params
    if params.star_arg is not cst.MaybeSentinel.DEFAULT or params.star_kwarg or params.kwonly_params:
        return None
    positional = [*params.posonly_params, *params.params]
    if len(positional) != 2 or node.asynchronous is not None:
        return None
    return positional[1].name.value


class _Reads(cst.CSTVisitor):
    """Whether a name is read in a body (attribute names and keywords are labels, not reads)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.found = False

    def visit_Name(self, node: cst.Name) -> None:
        if node.value == self.name:
            self.found = True

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        node.value.visit(self)
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        node.value.visit(self)
        return False


def reads(node: cst.FunctionDef, name: str) -> bool:
    visitor = _Reads(name)
    node.body.visit(visitor)
    return visitor.found


def _step_parameters(node: cst.FunctionDef | None) -> tuple[list[str], bool]:
    if node is None:
        return [], False
    params = node.params
    names = [param.name.value for param in (*params.posonly_params, *params.params)]
    return names, params.star_arg is not cst.MaybeSentinel.DEFAULT


def super_init(init: cst.FunctionDef) -> int | None:
    """Index in ``__init__``'s body of its top-level ``super().__init__(...)`` (or ``Base.__init__(self, ...)``)."""
    if not isinstance(init.body, cst.IndentedBlock):
        return None
    for index, statement in enumerate(init.body.body):
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            call = small.value if isinstance(small, cst.Expr) else None
            func = call.func if isinstance(call, cst.Call) else None
            if isinstance(func, cst.Attribute) and func.attr.value == "__init__":
                return index
    return None


#: The attribute names of the last module asked about (one walk a file, not one a hook and a question).
_ATTRIBUTES: dict[int, tuple[Any, Counter[str]]] = {}


def _named_elsewhere(ctx: FileContext, name: str, allowed: int = 0) -> bool:
    """Whether the module reads ``.name`` (a call of the hook itself, ``super().validation_epoch_end(outputs)``) more
    than ``allowed`` times."""
    analysis = ctx.analysis
    found = _ATTRIBUTES.get(id(analysis))
    if found is None or found[0] is not analysis:
        names = Counter(
            node.attr
            for statement in analysis.statements
            if statement.depth == 0
            for node in ast.walk(statement.node)
            if isinstance(node, ast.Attribute)
        )
        _ATTRIBUTES.clear()
        found = _ATTRIBUTES[id(analysis)] = (analysis, names)
    return found[1][name] > allowed


def blocker(
    ctx: FileContext, cls: cst.ClassDef, node: cst.FunctionDef, through: tuple[str, frozenset[str] | None] | None = None
) -> str | None:
    """Why ``node`` (an epoch-end hook of ``cls``) cannot be rewritten exactly; None when it can. ``through``: the
    project's class ``cls`` derives from (not Lightning's directly), with the hook words of it and its own project
    bases (``codemods.project.hook_classes.project_hook_words``)."""
    row = EPOCH_ENDS[node.name.value]
    name = parameter(node)
    if name is None:
        return "its signature is not (self, outputs)"
    defined = methods(cls)
    if through is not None and through[1] is None:
        return f"the class derives from the project's {through[0]}, whose own hooks this rewrite cannot see"
    # (the messages name the kinds of hook, not the one found: the base's own rewrite in this run turns one into the
    # other, and a second run must write the same TODO)
    if through is not None and through[1] and through[1] & {row.hook, row.successor}:
        return f"the class derives from the project's {through[0]}, which has its own {row.hook} or {row.successor}"
    for clash in (row.successor, row.batch_end):
        if clash in defined:
            return f"the class also defines {clash}: merge the two by hand"
    if _named_elsewhere(ctx, row.hook, dropped_calls(ctx, cls, node)):
        return f"the module calls {row.hook} by name"
    if not reads(without_empty_supers(ctx, cls, node), name):
        return None  # nothing to collect: a rename
    inherited = _inherited(row, defined, *through) if through is not None else None
    if inherited is not None:
        return inherited
    step_names, step_varargs = _step_parameters(defined.get(row.step))
    if row.step + "_end" in defined:
        return f"1.x collected the outputs of {row.step}_end, which 2.x removed"
    if step_varargs or "dataloader_idx" in step_names:
        return "with several dataloaders 1.x passed a list of outputs per dataloader"
    if row.training and ("optimizer_idx" in step_names or "hiddens" in step_names):
        return "with several optimizers or truncated backprop 1.x passed a list per optimizer or split"
    if _named_elsewhere(ctx, row.attribute) or row.attribute in defined:
        return f"the module already has a {row.attribute}"
    init = defined.get("__init__")
    if init is None or super_init(init) is None:
        return "the class has no __init__ calling super().__init__() to create the list in"
    if row.training and ctx.resolve("torch") not in (None, "torch"):
        return "the name torch is bound to something else here"
    return None


def _inherited(
    row: EpochEnd, defined: dict[str, cst.FunctionDef], base: str, words: frozenset[str] | None
) -> str | None:
    """Why a hook of a subclass of the project's ``base`` that reads its outputs cannot collect them like a direct
    LightningModule's: the base (or a project class it derives from) has this stage's batch-end hook, step-end hook
    or list, which the subclass's new ones would override, or the step whose outputs are collected. None where it
    has none: then the subclass's hooks are the stage's."""
    if (words or frozenset()) & {row.batch_end, f"{row.step}_end", row.attribute}:
        return (
            f"the class derives from the project's {base}, which has its own {row.batch_end}, {row.step}_end or "
            f"{row.attribute}"
        )
    if words is not None and row.step in words and row.step not in defined:
        return f"its {row.step} is the project's {base}'s, whose outputs this rewrite cannot see"
    return None
