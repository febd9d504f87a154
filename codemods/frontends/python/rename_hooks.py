"""The one generic rename rule: every row of ``legacy_api.renames.RENAMES`` through qualified names.

Usages are rewritten in place (``DDPPlugin`` -> ``DDPStrategy``, ``pl.plugins.DDPPlugin`` ->
``pl.strategies.DDPStrategy``); imports go through libcst's ``AddImportsVisitor``/``RemoveImportsVisitor``,
except where the local name survives the rename (``... import DDPPlugin as P``, ``from compat import Runner``):
``RemoveImportsVisitor`` keeps an import whose name is still used, so those aliases are retargeted directly.
A row without a replacement leaves the code and adds a TODO.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.frontends.python import presets
from codemods.plan.resolve import Resolution, resolve, split_root
from codemods.plan.rule import Handler
from legacy_api.renames import RENAMES, version_tuple

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

RULE_IDS: frozenset[str] = frozenset(row.rule for row in RENAMES if row.kind != "kwarg")


def _rules(ctx: FileContext) -> frozenset[str]:
    return frozenset(rule for rule in RULE_IDS if ctx.enabled(rule))


def _resolve(ctx: FileContext, name: str) -> Resolution | None:
    return resolve(name, ctx.target, _rules(ctx))


def _dotted(text: str) -> cst.BaseExpression:
    return cst.parse_expression(text)


def _removed(ctx: FileContext, res: Resolution, node: cst.CSTNode, use: bool = True) -> None:
    """A name without a replacement: a TODO on each use, naming the replacement. The import of a name gone at the
    target is only reported: it fails loudly there by itself, and its uses carry the TODOs."""
    row = res.rows[-1]
    message = f"{res.old} is deprecated in {row.deprecated_in}: {res.note or 'no replacement'}"
    gone = row.removed_in is not None and version_tuple(row.removed_in) <= ctx.target
    if gone and not use:
        ctx.report(row.rule, f"{message} (gone in {row.removed_in}: importing it fails loudly there)", node)
    elif gone:
        short = res.old.rpartition(".")[2]
        ctx.todo(row.rule, f"{short}: {res.note}" if res.note else f"{short} is gone in {row.removed_in}", node)
    else:
        ctx.todo(row.rule, message, node)


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
        if res.preset and not presets.renamed_use(ctx, res, original):
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
        if res is not None and res.preset:  # a preset rename happens at the uses, which add the new import
            ctx.preset_imports[res.old] = (alias, ctx.anchor)
            continue
        if res is None:
            continue
        if res.new is None:
            _removed(ctx, res, original, use=False)
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
    line = ctx.statements[-1] if ctx.statements else None
    if len(ctx.statements) > 1 and isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1:
        return _split_nested(ctx, line, updated, plans)
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
        asname = alias.evaluated_alias
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
    statement = updated.with_changes(module=_dotted(module), names=kept)
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
                body=[cst.ImportFrom(module=_dotted(new_module), names=names)],  # type: ignore[arg-type]
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
        res = _resolve(ctx, name)
        if res is None or res.preset:
            continue
        if res.new is None:
            _removed(ctx, res, original, use=False)
            continue
        ctx.fix(res.rule, f"{name} -> {res.new}", alias)
        names[index] = names[index].with_changes(name=_dotted(res.new))
        changed = True
    return updated.with_changes(names=names) if changed else updated


# --- quoted annotations ----------------------------------------------------------------------------------------
def _subscripted(node: cst.Subscript) -> str:
    value = node.value
    return value.attr.value if isinstance(value, cst.Attribute) else value.value if isinstance(value, cst.Name) else ""


class _Quoted(cst.CSTTransformer):
    """The strings of an annotation that are type expressions (``"DDPPlugin"``, ``Optional["DDPPlugin"]``).

    Each one is parsed and renamed through the same hooks as code, in the scopes of the annotation. The
    arguments of ``Literal[...]`` and the metadata of ``Annotated[...]`` are values, not types: left alone.
    """

    def __init__(self, ctx: FileContext, places: list[cst.CSTNode] | None = None) -> None:
        super().__init__()
        self.ctx = ctx
        self.values: set[int] = set()
        #: Where each string visited is in the file (the same walk over the original annotation), if known.
        self.places = places
        self.strings: list[cst.CSTNode] = []

    def visit_Subscript(self, node: cst.Subscript) -> bool:
        name = _subscripted(node)
        if name == "Annotated":
            self.values.update(id(element) for element in node.slice[1:])
        return name != "Literal"

    def visit_SubscriptElement(self, node: cst.SubscriptElement) -> bool:
        return id(node) not in self.values

    def leave_SimpleString(self, original: cst.SimpleString, updated: cst.SimpleString) -> Any:
        self.strings.append(original)
        if self.places is None:
            return updated
        place = self.places[len(self.strings) - 1] if len(self.strings) <= len(self.places) else None
        return quoted_type(self.ctx, updated, place)


class _InString(cst.CSTTransformer):
    """The rename hooks over an expression parsed from a string (its own labels, forgotten afterwards)."""

    def __init__(self, ctx: FileContext) -> None:
        super().__init__()
        self.ctx = ctx
        self.labels: set[int] = set()

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self.labels.add(id(node.attr))
        self.ctx.labels.add(id(node.attr))

    def visit_Arg(self, node: cst.Arg) -> None:
        if node.keyword is not None:
            self.labels.add(id(node.keyword))
            self.ctx.labels.add(id(node.keyword))

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> Any:
        return leave_name(self.ctx, original, updated)

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> Any:
        return leave_attribute(self.ctx, original, updated)

    def leave_SimpleString(self, original: cst.SimpleString, updated: cst.SimpleString) -> Any:
        return quoted_type(self.ctx, updated)  # ``"Optional['DDPPlugin']"``


def quoted_type(ctx: FileContext, node: cst.SimpleString, place: cst.CSTNode | None = None) -> cst.SimpleString:
    """``"DDPPlugin"`` -> ``"DDPStrategy"`` when the string, read as a type expression, names a renamed class."""
    if node.prefix.lower() not in ("", "u"):
        return node
    text = node.evaluated_value
    if not isinstance(text, str) or not text.strip() or "\n" in text:
        return node
    try:
        expression = cst.parse_expression(text.strip())
    except cst.ParserSyntaxError:
        return node
    before = ctx.code(expression)
    visitor = _InString(ctx)
    first = len(ctx.pending)
    try:
        renamed = expression.visit(visitor)
    finally:
        ctx.labels -= visitor.labels  # those nodes die with this string: their ids may be reused
    for item in ctx.pending[first:]:
        item.node = place or node  # reported where the string is (the parsed nodes have no place in the file)
    code = ctx.code(renamed)
    quote = node.quote
    if code == before or quote[0] in code or "\\" in code or "\n" in code:
        return node
    stripped = text.strip()
    lead, trail = text[: text.index(stripped)], text[text.index(stripped) + len(stripped) :]
    return node.with_changes(value=f"{node.prefix}{quote}{lead}{code}{trail}{quote}")


def leave_annotation(ctx: FileContext, original: cst.Annotation, updated: cst.Annotation) -> Any:
    if ctx.in_import:
        return updated
    places = _Quoted(ctx)
    original.annotation.visit(places)  # only collects the original strings (their place in the file)
    annotation = updated.annotation.visit(_Quoted(ctx, places.strings))
    return updated if annotation is updated.annotation else updated.with_changes(annotation=annotation)


def leave_cast(ctx: FileContext, original: cst.Call, updated: cst.Call) -> Any:
    """``cast("DDPPlugin", x)``: the string is a type, renamed like a quoted annotation."""
    func = original.func
    name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
    if name != "cast" or not updated.args or not isinstance(updated.args[0].value, cst.SimpleString):
        return updated
    first = updated.args[0]
    renamed = quoted_type(ctx, first.value, original.args[0].value)  # type: ignore[arg-type]
    if renamed is first.value:
        return updated
    return updated.with_changes(args=[first.with_changes(value=renamed), *updated.args[1:]])


def leave_call(ctx: FileContext, original: cst.Call, updated: cst.Call) -> Any:
    """``typing.cast`` strings are renamed; a class renamed with preset arguments gets the ones not passed."""
    return presets.complete(ctx, original, leave_cast(ctx, original, updated))


HANDLERS: dict[str, Handler] = {
    "Name": leave_name,
    "Attribute": leave_attribute,
    "Annotation": leave_annotation,
    "visit_Call": presets.visit_call,
    "Call": leave_call,
    "ImportFrom": leave_import_from,
    "Import": leave_import,
    "SimpleStatementLine": leave_statement_line,
}
