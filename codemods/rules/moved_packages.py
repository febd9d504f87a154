"""Names 1.8 moved out of ``pytorch_lightning`` into ``lightning_utilities`` or ``lightning_fabric`` (deprecated in
1.8, gone in 2.0) are imported from there: ``utilities.apply_func.apply_to_collection`` ->
``lightning_utilities.core.apply_func.apply_to_collection``, ``utilities.seed.reset_seed`` ->
``lightning_fabric.utilities.seed.reset_seed``. pytorch_lightning only; targets 2.0 and later (1.8 and 1.9 keep the
old names working, with a warning).

The rows live in ``legacy_api.moved_packages``: only those whose successor is public and does what the 1.5 function
did are rewritten here; the others (``utilities.cloud_io.load``, ``utilities.distributed.sync_ddp``: private in 2.x)
keep rule ``removed_names``' TODO, which names the successor and the difference. The generic rename machinery
writes names inside ``pytorch_lightning`` only, so this rule asks for the imports itself (``FileContext.add_import``,
reconciled once at the end like every rename's).

Where: ``from pytorch_lightning.utilities.seed import reset_seed [as r]`` (the statement is retargeted when every name
it imports moves to one module; otherwise the moved names leave it for a new import line, at module level only: inside
a block that line could run where the old one did not, so there it is a TODO), and a dotted use
(``pl.utilities.seed.reset_seed()``, ``seed.reset_seed()``). Not: an import in a ``try`` that catches ``ImportError``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.plan.rule import Rule
from codemods.rules.removed_names import guarded
from legacy_api.moved_packages import ACTS_IN, BY_OLD, MovedOut
from legacy_api.renames import PL

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

ID = "moved_packages"


def rewritten(ctx: FileContext, name: str) -> MovedOut | None:
    """The row this rule rewrites ``name`` by at the target (None when it leaves it alone)."""
    row = BY_OLD.get(name)
    if row is None or not row.exact or not ctx.applies(ID, ACTS_IN):
        return None
    return row


def _dotted(text: str) -> Any:
    return cst.parse_expression(text)


def leave_import_from(ctx: FileContext, original: cst.ImportFrom, updated: cst.ImportFrom) -> Any:
    if original.relative or original.module is None or isinstance(updated.names, cst.ImportStar):
        return updated
    module = ctx.code(original.module)
    if module.split(".", 1)[0] != PL or guarded(ctx):
        return updated
    moves = {
        i: row for i, alias in enumerate(updated.names) if (row := rewritten(ctx, f"{module}.{alias.evaluated_name}"))
    }
    if not moves:
        return updated
    targets = {row.new_module for row in moves.values()}
    if len(moves) == len(updated.names) and len(targets) == 1:
        for i, row in moves.items():
            ctx.fix(ID, f"{row.old} -> {row.new}", updated.names[i])
        return updated.with_changes(module=_dotted(targets.pop()))
    if len(ctx.statements) > 1:
        lines = "; ".join(f"from {row.new_module} import {row.new.rpartition('.')[2]}" for row in moves.values())
        ctx.todo(ID, f"these names moved out of {module}: {lines}", original)
        return updated
    for i, row in moves.items():
        alias = updated.names[i]
        ctx.fix(ID, f"{row.old} -> {row.new}", alias)
        ctx.add_import(row.new_module, row.new.rpartition(".")[2], alias.evaluated_alias)
    keep = [alias for i, alias in enumerate(updated.names) if i not in moves]
    if updated.rpar is None:
        keep[-1] = keep[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return updated.with_changes(names=keep)


def leave_attribute(ctx: FileContext, original: cst.Attribute, updated: cst.Attribute) -> Any:
    """``pl.utilities.seed.reset_seed`` -> ``lightning_fabric.utilities.seed.reset_seed``, importing its module."""
    if ctx.in_import:
        return updated
    name = ctx.qualified_name(original)
    row = rewritten(ctx, name) if name is not None else None
    if row is None:
        return updated
    ctx.fix(ID, f"{row.old} -> {row.new}", original)
    ctx.add_import(row.new_module)
    ctx.remove_imports_of(original)
    return _dotted(row.new)


RULE = Rule(
    id=ID,
    description="names moved out of pytorch_lightning into lightning_utilities/lightning_fabric "
    "(utilities.apply_func.apply_to_collection, utilities.seed.reset_seed) are imported from there",
    deprecated_in="1.8",
    handlers={"ImportFrom": leave_import_from, "Attribute": leave_attribute},
    # (the names 1.5 re-exported from torch, ``group`` among them, by their module: the word alone is everywhere)
    tokens=tuple(
        sorted(
            {row.old.rsplit(".", 1)[1] for row in BY_OLD.values() if row.exact and not row.new.startswith("torch.")}
            | {".".join(row.old.split(".")[-3:-1]) for row in BY_OLD.values() if row.new.startswith("torch.")}
        )
    ),
)
