"""The generic rename rule's hooks for names in code: ``DDPPlugin`` and ``pl.plugins.DDPPlugin`` by qualified name.

A row without a replacement leaves the code as it is and adds a TODO (:func:`removed`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.frontends.python import presets
from codemods.model import todo_comment
from codemods.plan.resolve import Resolution, resolve
from legacy_api.renames import RENAMES, version_tuple

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext


RULE_IDS: frozenset[str] = frozenset(row.rule for row in RENAMES if row.kind != "kwarg")


def _rules(ctx: FileContext) -> frozenset[str]:
    return frozenset(rule for rule in RULE_IDS if ctx.enabled(rule))


def resolve_enabled(ctx: FileContext, name: str) -> Resolution | None:
    return resolve(name, ctx.target, _rules(ctx))


def dotted(text: str) -> cst.BaseExpression:
    return cst.parse_expression(text)


def removed(ctx: FileContext, res: Resolution, node: cst.CSTNode, use: bool = True, local: str = "") -> None:
    """A name without a replacement: a TODO on each use, naming the replacement, and on the import of a name gone at
    the target (the import is where the target fails first; ``local``, the name it binds, takes that TODO with it
    where a rule rewrites its last use away: ``FileContext.import_todos``)."""
    row = res.rows[-1]
    message = f"{res.old} is deprecated in {row.deprecated_in}: {res.note or 'no replacement'}"
    gone = row.removed_in is not None and version_tuple(row.removed_in) <= ctx.target
    if gone and not use:
        said = f": {res.note}" if res.note else ""
        message = f"{res.old} is gone in {row.removed_in}, so this import fails{said}"
        ctx.todo(row.rule, message, node)
        if local:
            ctx.import_todos[local] = (todo_comment(message, row.rule), ctx.pending[-1])
    elif gone:
        short = res.old.rpartition(".")[2]
        ctx.todo(row.rule, f"{short}: {res.note}" if res.note else f"{short} is gone in {row.removed_in}", node)
    else:
        ctx.todo(row.rule, message, node)


def leave_name(ctx: FileContext, original: cst.Name, updated: cst.Name) -> Any:
    if ctx.in_import or id(original) in ctx.claimed:
        return updated
    for name in ctx.legacy_names(original):
        res = resolve_enabled(ctx, name)
        if res is None:
            continue
        if res.new is None:
            removed(ctx, res, original)
            return updated
        old_last, new_last = name.rsplit(".", 1)[-1], res.new.rsplit(".", 1)[-1]
        if res.preset:
            if not presets.renamed_use(ctx, res, original):
                return updated
            ctx.fix(res.rule, f"{name} -> {res.new}({presets.spelled(res.preset)})", original)
            ctx.add_import(res.new.rpartition(".")[0], new_last)
            ctx.remove_imports_of(original)
            return updated.with_changes(value=new_last)
        if original.value != old_last:  # an alias (``as P``): the import is retargeted, the usage stays
            return updated
        if new_last == original.value:  # only the import changes (``from compat import Runner``)
            return updated
        if ctx.name_taken(new_last, res.new):  # the import keeps the old name (``import Logger as Old``)
            return updated
        ctx.fix(res.rule, f"{name} -> {res.new}", original)
        return updated.with_changes(value=new_last)
    return updated


def visit_attribute(ctx: FileContext, node: cst.Attribute, _: Any) -> None:
    """``pl.loggers.base.LoggerCollection``, a name the target removed: its module part is not renamed on its own
    (``pl.loggers.logger.LoggerCollection`` is no name either), the chain keeps its TODO as written."""
    if ctx.in_import or id(node) in ctx.claimed:
        return
    for name in ctx.legacy_names(node):
        found = resolve_enabled(ctx, name)
        if found is not None and found.new is None:
            inner = node.value
            while isinstance(inner, cst.Attribute):
                ctx.claimed.add(id(inner))
                inner = inner.value
            return


def leave_attribute(ctx: FileContext, original: cst.Attribute, updated: cst.Attribute) -> Any:
    if ctx.in_import or id(original) in ctx.claimed:
        return updated
    for name in ctx.legacy_names(original):
        res = resolve_enabled(ctx, name)
        if res is None:
            continue
        if res.new is None:
            removed(ctx, res, original)
            return updated
        if res.preset and not presets.renamed_use(ctx, res, original):
            return updated
        chain = ctx.code(original).replace(" ", "").replace("\n", "")
        parts = chain.split(".")
        qn_parts = name.split(".")
        if len(qn_parts) < len(parts):
            return updated
        base_qn = ".".join(qn_parts[: len(qn_parts) - len(parts) + 1])
        base_res = resolve_enabled(ctx, base_qn)
        base_new = base_res.new if base_res is not None and base_res.new is not None else base_qn
        ctx.fix(res.rule, f"{name} -> {res.new}", original)
        if res.new.startswith(base_new + "."):
            return dotted(parts[0] + res.new[len(base_new) :])
        module, _, obj = res.new.rpartition(".")
        ctx.add_import(module, obj)
        if base_qn == parts[0]:  # ``import compat`` may now be unused
            ctx.remove_import(base_qn)
        return cst.Name(obj)
    return updated
