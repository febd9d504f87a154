"""The one libcst traversal that dispatches nodes to the enabled rules' hooks, visiting only what can matter.

Every statement libcst visits is paired with the ``ast`` statement at the same place in source order (see
``codemods.frontends.python.qualnames``): that gives its lines, so a statement whose lines mention nothing a rule looks
for is skipped whole, and it gives the scope a ``def``/``class`` opens, so names resolve against their own scope.
A pairing that does not line up raises :class:`Desync`; the pipeline then leaves the file untouched.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.frontends.python.qualnames import Statement
from codemods.model import TODO_PREFIX

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext, Handler

STATEMENTS = (cst.SimpleStatementLine, cst.BaseCompoundStatement)
_LINES = (cst.SimpleStatementLine, cst.SimpleStatementSuite)

#: libcst statement class -> the ``ast`` statement classes it pairs with.
_PAIRS: dict[str, tuple[str, ...]] = {
    "FunctionDef": ("FunctionDef", "AsyncFunctionDef"),
    "For": ("For", "AsyncFor"),
    "With": ("With", "AsyncWith"),
    "Del": ("Delete",),
}


class Desync(Exception):
    """The libcst and ast statement sequences did not line up (a bug, never a user error)."""


#: Parents whose child ``Name`` is a label (an attribute, a keyword, a definition), not a reference.
_LABELS: dict[type[cst.CSTNode], str] = {
    cst.Attribute: "attr",
    cst.Arg: "keyword",
    cst.FunctionDef: "name",
    cst.ClassDef: "name",
    cst.Param: "name",
    cst.AsName: "name",
    cst.NameItem: "name",
}

#: Nodes that hold nothing but whitespace, punctuation or a literal's text. Where no rule hooks one of them (the usual
#: case) its subtree is not visited: libcst then keeps the node as it is rather than rebuilding an equal one, and these
#: are most of the nodes of a visited statement.
_OPAQUE_BASES = (cst.BaseBinaryOp, cst.BaseBooleanOp, cst.BaseCompOp, cst.BaseUnaryOp, cst.BaseAugOp)
_OPAQUE: frozenset[type[cst.CSTNode]] = frozenset(
    {
        *(kind for kind in vars(cst).values() if isinstance(kind, type) and issubclass(kind, _OPAQUE_BASES)),
        *(cst.SimpleWhitespace, cst.ParenthesizedWhitespace, cst.TrailingWhitespace, cst.EmptyLine, cst.Comment),
        *(cst.Newline, cst.LeftParen, cst.RightParen, cst.LeftSquareBracket, cst.RightSquareBracket),
        *(cst.LeftCurlyBrace, cst.RightCurlyBrace, cst.Comma, cst.Dot, cst.Colon, cst.Semicolon, cst.AssignEqual),
        *(cst.ImportStar, cst.Asynchronous, cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.Ellipsis),
        cst.FormattedStringText,
    }
)


class _Kind:
    """What the pass does with every node of one libcst class: the same answers, found once per class."""

    __slots__ = ("block", "imports", "label", "leaves", "opaque", "statement", "visits")

    def __init__(self, kind: type[cst.CSTNode], opaque: frozenset[type[cst.CSTNode]], ctx: FileContext) -> None:
        self.opaque = kind in opaque
        #: Paired with an ``ast`` statement, and (of those) entered as the statement TODOs go above.
        self.statement = issubclass(kind, (*_LINES, cst.BaseCompoundStatement, cst.BaseSmallStatement))
        self.block = issubclass(kind, STATEMENTS)
        self.imports = issubclass(kind, cst.Import | cst.ImportFrom)
        self.label = _LABELS.get(kind)
        self.visits: Sequence[Handler] = ctx.visitors.get(kind.__name__, ())
        self.leaves: Sequence[Handler] = ctx.handlers.get(kind.__name__, ())


class RulePass(cst.CSTTransformer):
    """Dispatches every visited node to the enabled rules' hooks: one traversal for all rules."""

    def __init__(
        self,
        ctx: FileContext,
        statements: Sequence[Statement],
        lines: Sequence[int],
        kinds: dict[type[cst.CSTNode], _Kind] | None = None,
    ) -> None:
        """``kinds``: what :meth:`_kind` found, shared by the passes over one file's chunks (they share the hooks)."""
        super().__init__()
        self.ctx = ctx
        self.statements = statements
        self.lines = lines
        self.position = 0
        #: A hook returned something new: the chunk must be generated again (otherwise its text stands).
        self.changed = False
        self.skipped: set[int] = set()
        self.block_scopes: dict[int, Any] = {}
        hooked = {*ctx.handlers, *ctx.visitors}
        self.opaque = frozenset(kind for kind in _OPAQUE if kind.__name__ not in hooked)
        self.kinds: dict[type[cst.CSTNode], _Kind] = {} if kinds is None else kinds

    def _kind(self, node: cst.CSTNode) -> _Kind:
        kind = self.kinds[type(node)] = _Kind(type(node), self.opaque, self.ctx)
        return kind

    # --- pairing with ast -----------------------------------------------------------------------------------
    def _next(self, node: cst.CSTNode, offset: int = 0) -> Statement:
        if self.position + offset >= len(self.statements):
            raise Desync(f"no ast statement left for a libcst {type(node).__name__}")
        statement = self.statements[self.position + offset]
        expected = _PAIRS.get(type(node).__name__, (type(node).__name__,))
        if type(statement.node).__name__ not in expected:
            raise Desync(f"libcst {type(node).__name__} paired with ast {type(statement.node).__name__}")
        return statement

    def _interesting(self, start: int, end: int) -> bool:
        index = bisect_left(self.lines, start)
        return index < len(self.lines) and self.lines[index] <= end

    def _enter_statement(self, node: cst.CSTNode) -> bool:
        """Advance the pairing past ``node``; False when none of its lines matter (then it is skipped)."""
        if isinstance(node, _LINES):
            smalls = [self._next(small, offset) for offset, small in enumerate(node.body)]
            count = len(smalls)
            first, last = smalls[0], smalls[-1]
            if not self._interesting(first.start, last.end):
                self.position += count
                return False
            if isinstance(node, cst.SimpleStatementLine):
                self.ctx.enter_statement(node, first.start, first.column)
            return True
        if isinstance(node, cst.BaseSmallStatement):
            self._next(node)
            self.position += 1
            return True
        statement = self._next(node)
        if not self._interesting(statement.start, statement.end):
            self.position += statement.size
            return False
        self.position += 1
        self.ctx.enter_statement(node, statement.start, statement.column)
        if statement.scope is not None:
            self.block_scopes[id(getattr(node, "body", None))] = statement.scope
        return True

    # --- dispatch ----------------------------------------------------------------------------------------------
    # No hook is keyed by a node's attribute: these two stop libcst looking one up for every child of every node.
    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        return None

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        return None

    def on_visit(self, node: cst.CSTNode) -> bool:
        kind = self.kinds.get(type(node)) or self._kind(node)
        if kind.opaque:
            return False
        ctx = self.ctx
        if kind.statement and not self._enter_statement(node):
            self.skipped.add(id(node))
            return False
        scope = self.block_scopes.get(id(node))
        if scope is not None:
            ctx.scopes.append(scope)
        if kind.imports:
            ctx.in_import += 1
        if kind.label is not None:
            label = getattr(node, kind.label)
            if isinstance(label, cst.Name):
                ctx.labels.add(id(label))
        for visit in kind.visits:
            visit(ctx, node, node)
        return True

    def on_leave(self, original_node: Any, updated_node: Any) -> Any:
        kind = self.kinds.get(type(original_node)) or self._kind(original_node)
        if kind.opaque:
            return updated_node
        ctx = self.ctx
        if self.skipped and id(original_node) in self.skipped:
            self.skipped.discard(id(original_node))
            return updated_node
        node_type = type(original_node)
        result = updated_node
        for handler in kind.leaves:
            result = handler(ctx, original_node, result)
            if type(result) is not node_type:  # replaced by another kind of node: other hooks no longer apply
                break
        if id(original_node) in self.block_scopes:
            ctx.scopes.pop()
            del self.block_scopes[id(original_node)]
        if kind.block:
            ctx.leave_statement()
            texts = ctx.todos.pop(id(original_node), None)
            if texts:
                if isinstance(result, cst.FlattenSentinel):
                    first, *rest = result.nodes
                    result = cst.FlattenSentinel([with_todos(first, texts), *rest])
                else:
                    result = with_todos(result, texts)
        elif kind.imports:
            ctx.in_import -= 1
        if result is not updated_node:
            self.changed = True
        return result


def with_todos(node: Any, texts: Sequence[str]) -> Any:
    """``node`` with a comment line above it for each of ``texts`` not already there.

    A TODO of the same rule that an earlier run wrote differently (the code it quotes changed since) is
    replaced where it stands rather than joined by a second one: TODOs never pile up above a statement.
    """
    if not isinstance(node, STATEMENTS):
        return node
    leading = list(node.leading_lines)
    present = {line.comment.value for line in leading if line.comment is not None}
    missing = [text for text in texts if text not in present]
    if not missing:
        return node
    stale = [
        index
        for index, line in enumerate(leading)
        if line.comment is not None and line.comment.value.startswith(TODO_PREFIX) and line.comment.value not in texts
    ]
    added = []
    for text in missing:
        rule = text[text.rfind(" [") :]
        index = next((i for i in stale if leading[i].comment.value.endswith(rule)), None)  # type: ignore[union-attr]
        if index is None:
            added.append(cst.EmptyLine(indent=True, comment=cst.Comment(text)))
        else:
            stale.remove(index)
            leading[index] = leading[index].with_changes(comment=cst.Comment(text))
    return node.with_changes(leading_lines=[*leading, *added])
