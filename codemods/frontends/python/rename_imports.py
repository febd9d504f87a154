"""The generic rename rule's hooks for import statements.

An import of a renamed name is scheduled (``FileContext.add_import``/``remove_import``) and reconciled once, at the
end (``codemods.frontends.python.imports``), except where the local name survives the rename (``... import DDPPlugin
as P``, ``from compat import Runner``): an import whose name is still used is kept, so those aliases are retargeted
here directly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.frontends.python.imports import with_aliases
from codemods.frontends.python.rename_names import dotted, removed, resolve_enabled
from codemods.plan.resolve import Resolution, split_root
from legacy_api.renames import RENAMES

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext


def _drop_aliases(updated: cst.ImportFrom, drop: set[int]) -> Any:
    assert not isinstance(updated.names, cst.ImportStar)
    return with_aliases(updated, [alias for index, alias in enumerate(updated.names) if index not in drop])


def _shadowed(ctx: FileContext, local: str, node: cst.CSTNode, name: str) -> bool:
    """The module binds ``local`` some other way too: its import is left alone (and reported)."""
    if ctx.resolve(local) is not None:
        return False
    res = resolve_enabled(ctx, name)
    if res is not None:
        ctx.report(res.rule, f"{local} is also bound by other code in this scope: {name} was not migrated", node)
    return True


def _kept_local(ctx: FileContext, alias: cst.ImportAlias, new: str) -> bool:
    """An import without ``as`` whose new name another binding of the module already holds: it is imported under
    its old local name, and the uses stay as written (``rename_names.leave_name`` asks the same question)."""
    new_name = new.rpartition(".")[2]
    return alias.asname is None and new_name != alias.evaluated_name and ctx.name_taken(new_name, new)


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
        res = resolve_enabled(ctx, f"{module}.{alias.evaluated_name}")
        if res is not None and res.preset:  # a preset rename happens at the uses, which add the new import
            ctx.preset_imports[res.old] = (alias, ctx.anchor)
            continue
        if res is None:
            continue
        if res.new is None:
            removed(ctx, res, original, use=False, local=local)
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
            new_name = res.new.rpartition(".")[2]
            changes: dict[str, Any] = {"name": cst.Name(new_name)}
            if _kept_local(ctx, alias, res.new):
                changes["asname"] = cst.AsName(name=cst.Name(alias.evaluated_name))
            names.append(new_alias.with_changes(**changes))
        return updated.with_changes(module=dotted(targets.pop()), names=names)
    line = ctx.statements[-1] if ctx.statements else None
    if len(ctx.statements) > 1 and isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1:
        return _split_nested(ctx, line, updated, plans)
    drop: set[int] = set()
    assert not isinstance(updated.names, cst.ImportStar) and not isinstance(original.names, cst.ImportStar)
    aliases = list(updated.names)
    present = {alias.evaluated_name for alias in original.names}
    for index, alias, res in plans:
        assert res.new is not None
        new_module, _, new_name = res.new.rpartition(".")
        ctx.fix(res.rule, f"{res.old} -> {res.new}", alias)
        asname = alias.evaluated_name if _kept_local(ctx, alias, res.new) else alias.evaluated_alias
        if new_module == module and new_name not in present and asname == alias.evaluated_alias:
            # renamed within this module: in place, where the line and its layout already are
            aliases[index] = aliases[index].with_changes(name=cst.Name(new_name))
            present.add(new_name)
            continue
        local_kept = asname is not None or new_name == alias.evaluated_name
        ctx.add_import(new_module, new_name, asname if asname not in (None, new_name) else None)
        if local_kept:
            drop.add(index)
        else:
            ctx.remove_import(module, alias.evaluated_name, asname)
    renamed = updated.with_changes(names=aliases)
    return _drop_aliases(renamed, drop) if drop else renamed


def _split_nested(
    ctx: FileContext, line: cst.SimpleStatementLine, updated: cst.ImportFrom, plans: list[tuple[int, Any, Resolution]]
) -> Any:
    """An import inside a block (``if TYPE_CHECKING:``, a function, ``try:``) whose names move to several modules.

    The names that leave the statement's module go to new ``from <new module> import ...`` lines right below
    it, in the same block: a module-level import would run where the original did not (``TYPE_CHECKING``), and
    the old import, left in place, would fail where the old name is gone. The statement keeps the names that
    stay (renamed in place, with their commas and comments); when none stays it takes the first new module.
    """
    assert not isinstance(updated.names, cst.ImportStar)
    module = ctx.code(updated.module) if updated.module is not None else ""
    aliases: list[Any] = list(updated.names)
    groups: dict[str, list[int]] = {}
    renamed: dict[int, cst.ImportAlias] = {}
    for index, alias, res in plans:
        assert res.new is not None
        new_module, _, new_name = res.new.rpartition(".")
        ctx.fix(res.rule, f"{res.old} -> {res.new}", alias)
        asname = alias.evaluated_name if _kept_local(ctx, alias, res.new) else alias.evaluated_alias
        kept_as = cst.AsName(cst.Name(asname)) if asname not in (None, new_name) else None
        renamed[index] = aliases[index].with_changes(name=cst.Name(new_name), asname=kept_as)
        groups.setdefault(new_module, []).append(index)
    planned = {index for index, _, _ in plans}
    stay = [index for index in range(len(aliases)) if index not in planned] + groups.pop(module, [])
    if not stay:
        module, stay = next(iter(groups.items()))
        del groups[module]
    kept = [renamed.get(index, aliases[index]) for index in sorted(stay)]
    if updated.rpar is None:
        kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    else:
        kept[-1] = kept[-1].with_changes(comma=aliases[-1].comma)
    statement = updated.with_changes(module=dotted(module), names=kept)
    lines = []
    for new_module, indices in groups.items():
        names = [renamed[index].with_changes(comma=cst.MaybeSentinel.DEFAULT) for index in indices]
        comments = [comment for index in indices for comment in _comments(aliases[index])]
        trailing = cst.TrailingWhitespace()
        if comments:
            text = "  ".join(comments)
            trailing = cst.TrailingWhitespace(whitespace=cst.SimpleWhitespace("  "), comment=cst.Comment(text))
        lines.append(
            cst.SimpleStatementLine(
                body=[cst.ImportFrom(module=dotted(new_module), names=names)],  # type: ignore[arg-type]
                trailing_whitespace=trailing,
            )
        )
    if lines:
        ctx.split_imports[id(line)] = lines
    return statement


def _comments(alias: cst.ImportAlias) -> list[str]:
    """The comment after an alias in a parenthesised import (``DDPPlugin,  # the spawn one``)."""
    comma = alias.comma
    after = comma.whitespace_after if isinstance(comma, cst.Comma) else None
    if isinstance(after, cst.ParenthesizedWhitespace) and after.first_line.comment is not None:
        return [after.first_line.comment.value]
    return []


def leave_statement_line(ctx: FileContext, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine) -> Any:
    """The lines :func:`_split_nested` adds below an import, in its block."""
    imports = ctx.split_imports.pop(id(original), None) if ctx.split_imports else None
    if not imports:
        return updated
    return cst.FlattenSentinel([updated, *imports])


def leave_import(ctx: FileContext, original: cst.Import, updated: cst.Import) -> Any:
    names = list(updated.names)
    changed = False
    for index, alias in enumerate(original.names):
        name = ctx.code(alias.name)
        if _shadowed(ctx, alias.evaluated_alias or name.split(".", 1)[0], alias, name):
            continue
        res = resolve_enabled(ctx, name)
        if res is None or res.preset:
            continue
        if res.new is None:
            removed(ctx, res, original, use=False)
            continue
        ctx.fix(res.rule, f"{name} -> {res.new}", alias)
        names[index] = names[index].with_changes(name=dotted(res.new))
        changed = True
    return updated.with_changes(names=names) if changed else updated
