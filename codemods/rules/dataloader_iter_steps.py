"""A LightningModule step that takes ``dataloader_iter``, written for 1.x: one TODO where 2.x calls it differently.

Lightning hands a ``*_step`` whose first parameter is named ``dataloader_iter`` the iterator over the batches instead
of a batch. 1.9.5 called ``training_step(dataloader_iter, batch_idx)`` and ``next(dataloader_iter)`` gave the batch
(``utilities.fetching.DataLoaderIterDataFetcher``); 2.0 passes the iterator alone (``loops.fetchers.
_DataLoaderIterDataFetcher``, ``OrderedDict(any=dataloader_iter)``) and ``next`` gives ``(batch, batch_idx,
dataloader_idx)``. So a step that still requires ``batch_idx`` fails with a ``TypeError`` at its first call, and
``batch = next(dataloader_iter)`` silently holds the triplet. Both get a TODO, never a rewrite: what the step does
with the batch index is the user's. Checked in ``training_step``/``validation_step``/``test_step``/``predict_step``
of a class deriving from LightningModule (directly or through the project's own classes).
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.plan.rule import Rule
from codemods.project.surface_uses import TOKENS as SURFACE_TOKENS
from codemods.rules._hook_classes import is_lightning_module, owner_class
from legacy_api.vocabulary import ITERATOR
from legacy_api.vocabulary import ITERATOR_STEPS as STEPS

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

ID = "dataloader_iter_steps"
_TRIPLET = "batch, batch_idx, dataloader_idx = next(dataloader_iter)"


def _lightning_module(ctx: FileContext, cls: cst.ClassDef) -> bool:
    return is_lightning_module(ctx, cls)


def _iterator_step(node: cst.FunctionDef) -> bool:
    """A step whose first parameter after ``self`` is ``dataloader_iter`` (what Lightning looks for)."""
    params = node.params.params
    return node.name.value in STEPS and len(params) >= 2 and params[1].name.value == ITERATOR


def leave_function_def(ctx: FileContext, original: cst.FunctionDef, updated: cst.FunctionDef) -> Any:
    cls = owner_class(ctx)
    if ctx.target < (2, 0) or cls is None or not _iterator_step(original) or not _lightning_module(ctx, cls):
        return updated
    params = original.params
    required = [p.name.value for p in params.params[2:] if p.default is None]
    required += [p.name.value for p in params.kwonly_params if p.default is None]
    if required:
        ctx.todo(
            ID,
            f"{original.name.value}(self, dataloader_iter, {', '.join(required)}): Lightning 2.x passes only "
            f"dataloader_iter (a TypeError at the first step); take the index from `{_TRIPLET}`",
            original,
        )
    return updated


def _in_iterator_step(ctx: FileContext) -> bool:
    """The statement being left lies in a ``*_step(self, dataloader_iter, ...)`` method of a LightningModule."""
    statements = ctx.statements
    for index in range(len(statements) - 1, 0, -1):
        function = statements[index]
        if isinstance(function, cst.FunctionDef):
            cls = statements[index - 1]
            return _iterator_step(function) and isinstance(cls, cst.ClassDef) and _lightning_module(ctx, cls)
    return False


def leave_assign(ctx: FileContext, original: cst.Assign, updated: cst.Assign) -> Any:
    """``batch = next(dataloader_iter)``: one name for what 2.x yields as a triplet."""
    value = original.value
    if ctx.target < (2, 0) or not (
        isinstance(value, cst.Call)
        and isinstance(value.func, cst.Name)
        and value.func.value == "next"
        and len(value.args) == 1
        and isinstance(value.args[0].value, cst.Name)
        and value.args[0].value.value == ITERATOR
    ):
        return updated
    if len(original.targets) != 1 or not isinstance(original.targets[0].target, cst.Name):
        return updated
    if _in_iterator_step(ctx):
        name = original.targets[0].target.value
        ctx.todo(
            ID,
            f"next(dataloader_iter) yields (batch, batch_idx, dataloader_idx) in Lightning 2.x, not the batch: "
            f"`{name}, batch_idx, dataloader_idx = next(dataloader_iter)`",
            original,
        )
    return updated


@functools.cache
def _visit() -> re.Pattern[str]:
    return re.compile(r"dataloader_iter\b")


RULE = Rule(
    id=ID,
    description="a *_step(self, dataloader_iter, batch_idx) and batch = next(dataloader_iter) get a TODO (2.x passes "
    "the iterator alone and it yields (batch, batch_idx, dataloader_idx))",
    deprecated_in="2.0",
    handlers={"FunctionDef": leave_function_def, "Assign": leave_assign},
    tokens=SURFACE_TOKENS[1:],  # "def ": decided by the surface prefilter (the step hooks)
    visit=_visit,
)
