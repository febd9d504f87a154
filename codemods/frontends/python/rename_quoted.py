"""The generic rename rule inside strings that are type expressions: quoted annotations and ``cast("DDPPlugin", x)``.

Each such string is parsed and renamed through the same name hooks as code (``rename_names``), in the scopes of
the annotation; it is written back only where the rewrite still fits in the same quotes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.frontends.python.rename_names import leave_attribute, leave_name

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext


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
    if not places.strings and updated.annotation is original.annotation:
        return updated  # no string to read as a type
    annotation = updated.annotation.visit(_Quoted(ctx, places.strings))
    # A transformer's visit builds new nodes even where nothing changed: an equal annotation is no rewrite (a new
    # node would have the pass generate the chunk's code again, for the same text).
    if annotation is updated.annotation or (
        isinstance(annotation, cst.CSTNode) and annotation.deep_equals(updated.annotation)
    ):
        return updated
    return updated.with_changes(annotation=annotation)


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
