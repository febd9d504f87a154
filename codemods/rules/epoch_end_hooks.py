"""``training_epoch_end``/``validation_epoch_end``/``test_epoch_end`` (removed in 2.0, where a module that still
defines one makes ``fit`` raise) -> ``on_train_epoch_end``/``on_validation_epoch_end``/``on_test_epoch_end``, with
the outputs 1.x passed kept by the module itself: the pattern of Lightning's own upgrade guide.

A hook that never reads its ``outputs`` is renamed and loses the parameter. One that reads them gets a list the
module owns, created in ``__init__`` right after ``super().__init__()``, a batch-end hook that appends what 2.x
hands it there for each step (the same per-step value 1.x collected, see ``codemods.rules._epoch_end_plan``:
None skipped; for training, empty outputs skipped and tensors detached as 1.5 did), and the renamed hook takes the
list and leaves a new one in its place before its own code runs, so ``outputs`` is the list 1.x passed and a
reference kept to it is never cleared under the user. The step itself is not touched. Anything else (several
dataloaders or optimizers, a ``*_step_end``, the hook called by name, a class that already has the batch-end or
epoch-end hook) keeps the TODO of rule ``removed_hooks``, which says why the rewrite was not exact.

Order of the hooks at the target (checked in 2.6.6's loops): the module's ``on_*_epoch_end`` runs after the
callbacks' own (1.x called the ``*_epoch_end`` before them); ``ModelCheckpoint`` and ``EarlyStopping`` read the
metrics it logs at ``on_validation_end`` / ``on_train_epoch_end`` after it, as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.plan.rule import Rule
from codemods.project.surface_uses import TOKENS as SURFACE_TOKENS
from codemods.rules._epoch_end_plan import EPOCH_ENDS, EpochEnd, blocker, methods, parameter, reads, super_init
from codemods.rules._epoch_end_supers import without_empty_supers
from codemods.rules._hook_classes import base_of, inherited_words, owner_class, project_base_of
from legacy_api.hooks import members

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

ID = "epoch_end_hooks"
_APPLY = "lightning_utilities.core.apply_func"


def applies(ctx: FileContext, cls: cst.ClassDef, node: cst.FunctionDef) -> bool:
    """Whether this rule rewrites ``node``: an epoch-end hook of a LightningModule that the target never calls,
    rewritable exactly (otherwise ``removed_hooks`` gives the TODO and asks :func:`blocker` why)."""
    if not (
        ctx.enabled(ID)
        and node.name.value in EPOCH_ENDS
        and node.name.value not in members(ctx.surface.release, "LightningModule")
    ):
        return False
    if base_of(ctx, cls) == "LightningModule":
        return blocker(ctx, cls, node) is None
    through = project_base_of(ctx, cls)
    if through is None or through[0] != "LightningModule":
        return False
    return blocker(ctx, cls, node, (through[1], inherited_words(ctx, through[1]))) is None


def _collector(row: EpochEnd) -> cst.FunctionDef:
    if row.training:
        keep = "if outputs:"
        value = "apply_to_collection(outputs, torch.Tensor, torch.Tensor.detach)"
    else:
        keep, value = "if outputs is not None:", "outputs"
    source = (
        f"def {row.batch_end}(self, {row.batch_end_parameters}):\n"
        f"    {keep}\n"
        f"        self.{row.attribute}.append({value})\n"
    )
    node = cst.parse_statement(source)
    assert isinstance(node, cst.FunctionDef)
    return node.with_changes(leading_lines=[cst.EmptyLine(indent=False)])


def _renamed(node: cst.FunctionDef, row: EpochEnd, collect: bool) -> cst.FunctionDef:
    positional = [*node.params.posonly_params, *node.params.params]
    self_param = positional[0].with_changes(comma=positional[-1].comma)  # (a trailing comma and its line stay)
    params = node.params.with_changes(params=[self_param], posonly_params=[])
    renamed = node.with_changes(name=cst.Name(row.successor), params=params)
    if not collect:
        return renamed
    name = parameter(node)
    prologue = [
        cst.parse_statement(f"{name} = self.{row.attribute}\n"),
        cst.parse_statement(f"self.{row.attribute} = []\n"),
    ]
    body = node.body
    if isinstance(body, cst.SimpleStatementSuite):
        body = cst.IndentedBlock(body=[cst.SimpleStatementLine(body=body.body)])
    assert isinstance(body, cst.IndentedBlock)
    statements = list(body.body)
    first = statements[0] if statements else None
    docstring = (
        isinstance(first, cst.SimpleStatementLine)
        and isinstance(first.body[0], cst.Expr)
        and isinstance(first.body[0].value, cst.SimpleString | cst.ConcatenatedString)
    )
    at = 1 if docstring else 0
    return renamed.with_changes(body=body.with_changes(body=[*statements[:at], *prologue, *statements[at:]]))


def _with_lists(init: cst.FunctionDef, rows: list[EpochEnd]) -> cst.FunctionDef:
    assert isinstance(init.body, cst.IndentedBlock)
    index = super_init(init)
    assert index is not None
    lines = [cst.parse_statement(f"self.{row.attribute} = []\n") for row in rows]
    body = list(init.body.body)
    return init.with_changes(body=init.body.with_changes(body=[*body[: index + 1], *lines, *body[index + 1 :]]))


def leave_function_def(ctx: FileContext, original: cst.FunctionDef, updated: cst.FunctionDef) -> Any:
    cls = owner_class(ctx)
    if cls is not None and original.name.value in EPOCH_ENDS and applies(ctx, cls, original):
        row = EPOCH_ENDS[original.name.value]
        name = parameter(original)
        bare = without_empty_supers(ctx, cls, original)
        how = (
            f"; its {name} is the list of step outputs the module now keeps in self.{row.attribute} ({row.batch_end})"
            if name is not None and reads(bare, name)
            else ""
        )
        empty = f"; super().{row.hook}(...) called LightningModule's own, empty in 1.x: dropped"
        dropped = empty if bare is not original else ""
        ctx.fix(ID, f"{row.hook} -> {row.successor} (removed in 2.0){how}{dropped}", original)
    return updated


def leave_class_def(ctx: FileContext, original: cst.ClassDef, updated: cst.ClassDef) -> Any:
    defined = methods(original)
    hooks = [node for name, node in defined.items() if name in EPOCH_ENDS and applies(ctx, original, node)]
    if not hooks or not isinstance(updated.body, cst.IndentedBlock):
        return updated
    collecting = [
        EPOCH_ENDS[node.name.value]
        for node in hooks
        if reads(without_empty_supers(ctx, original, node), parameter(node) or "")
    ]
    # Each collector goes right below its step, or below the renamed hook where the step is inherited.
    after = {(row.step if row.step in defined else row.hook): row for row in collecting}
    rewrite = {node.name.value for node in hooks}
    body: list[cst.BaseStatement] = []
    for statement in updated.body.body:
        name = statement.name.value if isinstance(statement, cst.FunctionDef) else None
        if isinstance(statement, cst.FunctionDef) and name == "__init__" and collecting:
            statement = _with_lists(statement, collecting)
        elif isinstance(statement, cst.FunctionDef) and name in rewrite:
            row = EPOCH_ENDS[statement.name.value]
            statement = _renamed(without_empty_supers(ctx, original, statement), row, row in collecting)
        body.append(statement)
        if name in after:
            body.append(_collector(after[name]))
    if any(row.training for row in collecting):
        ctx.add_import(_APPLY, "apply_to_collection")
        if ctx.resolve("torch") is None:
            ctx.add_import("torch")
    return updated.with_changes(body=updated.body.with_changes(body=body))


RULE = Rule(
    id=ID,
    description="training_epoch_end/validation_epoch_end/test_epoch_end -> on_*_epoch_end, the step outputs kept "
    "by the module (the upgrade guide's pattern), where that reproduces what 1.x passed",
    deprecated_in="2.0",
    handlers={"FunctionDef": leave_function_def, "ClassDef": leave_class_def},
    order=905,
    tokens=SURFACE_TOKENS[1:],  # "def ": decided by the surface prefilter, where these are changed hooks
)
