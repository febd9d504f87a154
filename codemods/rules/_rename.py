"""The one generic rename rule: every row of ``codemods.renames.RENAMES`` through qualified names.

Usages are rewritten in place (``DDPPlugin`` -> ``DDPStrategy``, ``pl.plugins.DDPPlugin`` ->
``pl.strategies.DDPStrategy``); imports go through libcst's ``AddImportsVisitor``/``RemoveImportsVisitor``,
except where the local name survives the rename (``... import DDPPlugin as P``, ``from compat import Runner``):
``RemoveImportsVisitor`` keeps an import whose name is still used, so those aliases are retargeted directly.
A row without a replacement leaves the code and adds a TODO.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.names import Resolution, resolve, split_root
from codemods.renames import RENAMES
from codemods.rules._base import Handler

if TYPE_CHECKING:
    from codemods.engine import FileContext

RULE_IDS: frozenset[str] = frozenset(row.rule for row in RENAMES if row.kind != "kwarg")


def _rules(ctx: FileContext) -> frozenset[str]:
    return frozenset(rule for rule in RULE_IDS if ctx.enabled(rule))


def _resolve(ctx: FileContext, name: str) -> Resolution | None:
    return resolve(name, ctx.target, _rules(ctx))


def _dotted(text: str) -> cst.BaseExpression:
    return cst.parse_expression(text)


def _removed(ctx: FileContext, res: Resolution, node: cst.CSTNode) -> None:
    row = res.rows[-1]
    ctx.todo(row.rule, f"{res.old} is deprecated in {row.deprecated_in}: {res.note or 'no replacement'}", node)


def leave_name(ctx: FileContext, original: cst.Name, updated: cst.Name) -> Any:
    if ctx.in_import or id(original) in ctx.claimed:
        return updated
    for name in ctx.legacy_names(original):
        res = _resolve(ctx, name)
        if res is None:
            continue
        if res.new is None:
            _removed(ctx, res, original)
            return updated
        old_last, new_last = name.rsplit(".", 1)[-1], res.new.rsplit(".", 1)[-1]
        if original.value != old_last:  # an alias (``as P``): the import is retargeted, the usage stays
            return updated
        if new_last == original.value:  # only the import changes (``from compat import Runner``)
            return updated
        ctx.fix(res.rule, f"{name} -> {res.new}", original)
        return updated.with_changes(value=new_last)
    return updated


def leave_attribute(ctx: FileContext, original: cst.Attribute, updated: cst.Attribute) -> Any:
    if ctx.in_import or id(original) in ctx.claimed:
        return updated
    for name in ctx.legacy_names(original):
        res = _resolve(ctx, name)
        if res is None:
            continue
        if res.new is None:
            _removed(ctx, res, original)
            return updated
        chain = ctx.code(original).replace(" ", "").replace("\n", "")
        parts = chain.split(".")
        qn_parts = name.split(".")
        if len(qn_parts) < len(parts):
            return updated
        base_qn = ".".join(qn_parts[: len(qn_parts) - len(parts) + 1])
        base_res = _resolve(ctx, base_qn)
        base_new = base_res.new if base_res is not None and base_res.new is not None else base_qn
        ctx.fix(res.rule, f"{name} -> {res.new}", original)
        if res.new.startswith(base_new + "."):
            return _dotted(parts[0] + res.new[len(base_new) :])
        module, _, obj = res.new.rpartition(".")
        ctx.add_import(module, obj)
        if base_qn == parts[0]:  # ``import compat`` may now be unused
            ctx.remove_import(base_qn)
        return cst.Name(obj)
    return updated


def _drop_aliases(updated: cst.ImportFrom, drop: set[int]) -> Any:
    assert not isinstance(updated.names, cst.ImportStar)
    keep = [alias for index, alias in enumerate(updated.names) if index not in drop]
    if not keep:
        return cst.RemoveFromParent()
    if updated.rpar is None:
        keep[-1] = keep[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return updated.with_changes(names=keep)


def _shadowed(ctx: FileContext, local: str, node: cst.CSTNode, name: str) -> bool:
    """The module binds ``local`` some other way too: its import is left alone (and reported)."""
    if ctx.resolve(local) is not None:
        return False
    res = _resolve(ctx, name)
    if res is not None:
        ctx.report(res.rule, f"{local} is also bound by other code in this scope: {name} was not migrated", node)
    return True


def _star(ctx: FileContext, module: str, node: cst.CSTNode) -> None:
    prefix = split_root(module)
    if prefix is None:
        return
    rel = f"{prefix[1]}." if prefix[1] else ""
    rows = [row for row in RENAMES if row.old.startswith(rel) and prefix[0] in row.roots and ctx.enabled(row.rule)]
    if rows:
        ctx.report(rows[0].rule, f"names from 'from {module} import *' are not migrated: import them by name", node)


def leave_import_from(ctx: FileContext, original: cst.ImportFrom, updated: cst.ImportFrom) -> Any:
    if original.relative or original.module is None:
        return updated
    module = ctx.code(original.module)
    if isinstance(original.names, cst.ImportStar):
        _star(ctx, module, original)
        return updated
    if split_root(module) is None:
        return updated
    plans: list[tuple[int, cst.ImportAlias, Resolution]] = []
    for index, alias in enumerate(original.names):
        local = alias.evaluated_alias or alias.evaluated_name
        if _shadowed(ctx, local, alias, f"{module}.{alias.evaluated_name}"):
            continue
        res = _resolve(ctx, f"{module}.{alias.evaluated_name}")
        if res is None:
            continue
        if res.new is None:
            _removed(ctx, res, original)
            continue
        plans.append((index, alias, res))
    if not plans:
        return updated
    targets = {res.new.rpartition(".")[0] for _, _, res in plans if res.new}
    if len(plans) == len(original.names) and len(targets) == 1:
        # Every name moves to the same module: retarget the statement itself, keeping its layout and comments.
        names = []
        for (_, alias, res), new_alias in zip(plans, updated.names, strict=True):  # type: ignore[arg-type]
            assert res.new is not None
            ctx.fix(res.rule, f"{res.old} -> {res.new}", alias)
            names.append(new_alias.with_changes(name=cst.Name(res.new.rpartition(".")[2])))
        return updated.with_changes(module=_dotted(targets.pop()), names=names)
    drop: set[int] = set()
    for index, alias, res in plans:
        assert res.new is not None
        new_module, _, new_name = res.new.rpartition(".")
        ctx.fix(res.rule, f"{res.old} -> {res.new}", alias)
        asname = alias.evaluated_alias
        local_kept = asname is not None or new_name == alias.evaluated_name
        ctx.add_import(new_module, new_name, asname if asname not in (None, new_name) else None)
        if local_kept:
            drop.add(index)
        else:
            ctx.remove_import(module, alias.evaluated_name, asname)
    return _drop_aliases(updated, drop) if drop else updated


def leave_import(ctx: FileContext, original: cst.Import, updated: cst.Import) -> Any:
    names = list(updated.names)
    changed = False
    for index, alias in enumerate(original.names):
        name = ctx.code(alias.name)
        if _shadowed(ctx, alias.evaluated_alias or name.split(".", 1)[0], alias, name):
            continue
        res = _resolve(ctx, name)
        if res is None:
            continue
        if res.new is None:
            _removed(ctx, res, original)
            continue
        ctx.fix(res.rule, f"{name} -> {res.new}", alias)
        names[index] = names[index].with_changes(name=_dotted(res.new))
        changed = True
    return updated.with_changes(names=names) if changed else updated


HANDLERS: dict[str, Handler] = {
    "Name": leave_name,
    "Attribute": leave_attribute,
    "ImportFrom": leave_import_from,
    "Import": leave_import,
}
