"""Reconcile imports once all rules ran: drop the legacy names nothing uses any more, add the new ones.

Rules never edit imports themselves: they schedule them (``FileContext.add_import``/``remove_import``) and this
module applies them once, the way libcst's ``AddImportsVisitor``/``RemoveImportsVisitor`` would. Those visitors
copy and walk the whole module (and the remover runs a full scope analysis), which costs more than parsing the
file; the same results come from the leading import block alone and from the resolved references. Additions
join the leading import block exactly where ``AddImportsVisitor`` puts them. Removals do what
``RemoveImportsVisitor`` does -- drop an imported name once nothing refers to it -- without its whole-module
scope analysis: the rules already resolved every reference through the import table, so the question left is
whether the name still occurs in the rewritten code. A plain word count answers "no" cheaply; when the word
is still there (a comment, a docstring, a string), the rewritten code's ``ast`` decides: a ``Name``, or a
string in an annotation or in ``__all__``, keeps the import; any other text never does.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import libcst as cst

from codemods.frontends.python.chunks import Chunk, leading_blanks
from codemods.frontends.python.qualnames import Statement

_ANNOTATION_LIKE = re.compile(r"[\w\s.,\[\]|'\"]*")


@dataclass(frozen=True)
class Removal:
    """Drop the import that binds ``local`` (from ``module``, when given) if ``local`` is unused."""

    local: str
    module: str | None = None


def _binds(statement: ast.stmt, local: str) -> bool:
    if isinstance(statement, ast.Import):
        return any((a.asname or a.name.split(".", 1)[0]) == local for a in statement.names)
    if isinstance(statement, ast.ImportFrom):
        return any((a.asname or a.name) == local for a in statement.names)
    return False


def _used(local: str, chunks: Sequence[Chunk], bindings: int) -> bool:
    word = re.compile(rf"\b{re.escape(local)}\b")
    counts = [len(word.findall(chunk.text)) for chunk in chunks]
    if sum(counts) <= bindings:
        return False
    # Still mentioned: parse only the chunks that mention it (each chunk is whole top-level statements).
    for chunk, count in zip(chunks, counts, strict=True):
        if not count:
            continue
        try:
            tree = ast.parse(chunk.text)
        except SyntaxError:
            return True
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id == local:
                return True
        # A string is code only where it stands for a type or an export: in an annotation ("DDPPlugin",
        # Optional["DDPPlugin"]) or in ``__all__``. Any other string (a label, a message) is text.
        for text in _typed_strings(tree):
            if word.search(text) and _ANNOTATION_LIKE.fullmatch(text):
                return True
    return False


def _typed_strings(tree: ast.Module) -> list[str]:
    """The string constants inside annotations, ``cast(...)``'s type and ``__all__`` of ``tree``."""
    roots: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.arg | ast.AnnAssign) and node.annotation is not None:
            roots.append(node.annotation)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns is not None:
            roots.append(node.returns)
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets) and node.value is not None:
                roots.append(node.value)
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name == "cast":
                roots.append(node.args[0])
    return [
        inner.value
        for root in roots
        for inner in ast.walk(root)
        if isinstance(inner, ast.Constant) and isinstance(inner.value, str)
    ]


class _Drop(cst.CSTTransformer):
    def __init__(self, locals_: set[str], comments: Collection[str] = ()) -> None:
        super().__init__()
        self.locals = locals_
        #: The TODO comments the dropped names' imports got: they concern nothing left in the file.
        self.comments = frozenset(comments)

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine) -> Any:
        lines = updated.leading_lines
        kept = [line for line in lines if line.comment is None or line.comment.value not in self.comments]
        return updated.with_changes(leading_lines=kept) if len(kept) != len(lines) else updated

    def leave_Import(self, original: cst.Import, updated: cst.Import) -> Any:
        keep = [a for a in updated.names if (a.evaluated_alias or a.evaluated_name.split(".")[0]) not in self.locals]
        return self._rebuild(updated, keep)

    def leave_ImportFrom(self, original: cst.ImportFrom, updated: cst.ImportFrom) -> Any:
        if isinstance(updated.names, cst.ImportStar):
            return updated
        keep = [a for a in updated.names if (a.evaluated_alias or a.evaluated_name) not in self.locals]
        return self._rebuild(updated, keep)

    @staticmethod
    def _rebuild(updated: Any, keep: list[cst.ImportAlias]) -> Any:
        return updated if len(keep) == len(updated.names) else with_aliases(updated, keep)


def with_aliases(updated: Any, keep: list[cst.ImportAlias]) -> Any:
    """The import ``updated`` (an ``Import`` or ``ImportFrom``) binding only ``keep``, a subsequence of its names;
    removed where none is left. Without parentheses the last name left loses its comma; within them it takes the
    last name's comma, so a ``)`` on a line of its own stays there."""
    if not keep:
        return cst.RemoveFromParent()
    if getattr(updated, "rpar", None) is None:
        keep[-1] = keep[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    elif keep[-1] is not updated.names[-1]:
        keep[-1] = keep[-1].with_changes(comma=updated.names[-1].comma)
    return updated.with_changes(names=keep)


def remove_unused(
    removals: Sequence[Removal],
    chunks: list[Chunk],
    statements: Sequence[Statement],
    comments: Mapping[str, str] | None = None,
) -> tuple[frozenset[int], frozenset[str]]:
    """Drop each removal's import where it is a top-level import statement and its name is no longer used, and the
    TODO comment ``comments`` holds for that name. Returns the first lines (in the input) of the import statements
    that went whole (a finding there concerns nothing left in the file) and the names dropped."""
    by_chunk: dict[int, set[str]] = {}
    for local in sorted({removal.local for removal in removals}):
        owners = {
            index
            for index, chunk in enumerate(chunks)
            for statement in statements[chunk.first : chunk.stop]
            if statement.depth == 0 and _binds(statement.node, local)
        }
        nested = any(s.depth > 0 and _binds(s.node, local) for s in statements)
        if not owners or nested:
            continue  # bound in a function or a block: leave it (conservative)
        bindings = sum(
            _binds(statements[i].node, local) for c in owners for i in range(chunks[c].first, chunks[c].stop)
        )
        if not _used(local, chunks, bindings):
            for index in owners:
                by_chunk.setdefault(index, set()).add(local)
    whole: set[int] = set()
    for index, locals_ in by_chunk.items():
        chunk = chunks[index]
        if chunk.module is not None:
            texts = [text for local, text in (comments or {}).items() if local in locals_]
            chunk.set_module(chunk.module.visit(_Drop(locals_, texts)))
            whole.update(
                statement.start
                for statement in statements[chunk.first : chunk.stop]
                if statement.depth == 0 and _names(statement.node) and _names(statement.node) <= locals_
            )
    for index, chunk in enumerate(chunks):
        # A removed statement's blank lines separated two groups: the next statement keeps them apart.
        following = next((c for c in chunks[index + 1 :] if c.text), None)
        if chunk.gap and index > 0 and following is not None and not leading_blanks(following.text):
            following.text, following.changed, chunk.gap = chunk.gap + following.text, True, ""
    return frozenset(whole), frozenset(local for locals_ in by_chunk.values() for local in locals_)


def _names(statement: ast.stmt) -> set[str]:
    """The names an import statement binds (none for any other statement or a star import)."""
    if isinstance(statement, ast.Import):
        return {alias.asname or alias.name.split(".", 1)[0] for alias in statement.names}
    if isinstance(statement, ast.ImportFrom):
        return {alias.asname or alias.name for alias in statement.names if alias.name != "*"}
    return set()


def trim_start(chunks: list[Chunk]) -> None:
    """When the file's first statements went away (and no import took their place), the file must not start
    with the blank lines that followed them. Run after :func:`add_needed`, whose imports may fill the gap."""
    for chunk in chunks:
        if chunk.text:
            if chunk is not chunks[0]:
                stripped = chunk.text.lstrip("\r\n")
                if stripped != chunk.text:
                    chunk.text, chunk.changed = stripped, True
            return


def _import_line(module: cst.Module) -> cst.Import | cst.ImportFrom | None:
    """The import of a chunk that is a single one-import line, else None."""
    if len(module.body) != 1:
        return None
    statement = module.body[0]
    if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
        small = statement.body[0]
        if isinstance(small, cst.Import | cst.ImportFrom):
            return small
    return None


def _module_name(node: cst.ImportFrom) -> str | None:
    if node.relative or node.module is None:
        return None
    return str(cst.Module(body=[]).code_for_node(node.module))


def add_needed(additions: Sequence[tuple[str, str | None, str | None]], chunks: list[Chunk], newline: str) -> None:
    """Add ``from module import obj [as asname]`` where ``AddImportsVisitor`` would.

    That is: names already imported by the leading import block are skipped; a name from a module the block
    already imports from joins that statement; the others become new statements at the end of the block,
    which stays separated from the code after it by a blank line. Only the block's chunks are parsed (libcst's
    visitor would copy and walk the whole module for the same result).
    """
    block: list[int] = []
    for index, chunk in enumerate(chunks):
        if chunk.first == chunk.stop:
            break
        module = chunk.parse(leading=index == 0)
        if not module.body and not chunk.text:
            continue  # an import this run removed
        if index == 0 and len(module.body) == 1 and _is_docstring(module.body[0]):
            block.append(index)
            continue
        if _import_line(module) is None:
            break
        block.append(index)
    wanted: dict[str, list[tuple[str | None, str | None]]] = {}
    for module_name, obj, asname in additions:
        if (obj, asname) not in wanted.setdefault(module_name, []):
            wanted[module_name].append((obj, asname))
    for index in block:
        chunk = chunks[index]
        assert chunk.module is not None
        node = _import_line(chunk.module)
        if isinstance(node, cst.ImportFrom) and not isinstance(node.names, cst.ImportStar):
            name = _module_name(node)
            present = {(a.evaluated_name, a.evaluated_alias) for a in node.names}
            missing = [item for item in wanted.get(name or "", []) if item not in present and item[0]]
            wanted.pop(name or "", None)
            if missing:
                new_names = [_alias(obj, asname) for obj, asname in sorted(missing)]  # type: ignore[arg-type]
                chunk.set_module(chunk.module.visit(_Extend(new_names)))
        elif isinstance(node, cst.Import):
            for alias in node.names:
                if alias.evaluated_alias is None and (None, None) in wanted.get(alias.evaluated_name, []):
                    wanted[alias.evaluated_name].remove((None, None))
    lines = []
    for module_name, items in wanted.items():
        plain = [asname for obj, asname in items if obj is None]
        if plain:
            lines.append(f"import {module_name}" + (f" as {plain[0]}" if plain[0] else ""))
        names = sorted((obj, asname) for obj, asname in items if obj is not None)
        if names:
            listed = ", ".join(obj if asname is None else f"{obj} as {asname}" for obj, asname in names)
            lines.append(f"from {module_name} import {listed}")
    if not lines:
        return
    at = block[-1] + 1 if block else 0
    text = "".join(line + newline for line in lines)
    if at < len(chunks) and not chunks[at].text and chunks[at].gap and at > 0:
        text, chunks[at].gap = chunks[at].gap + text, ""  # in place of a removed import, after its blank lines
    chunks.insert(at, Chunk(text, 0, 0, 0, 0, changed=True))
    after = chunks[at + 1] if at + 1 < len(chunks) else None
    if after is not None and after.text and after.text.split(newline, 1)[0].strip() != "":
        after.text, after.changed = newline + after.text, True


def _alias(obj: str, asname: str | None) -> cst.ImportAlias:
    return cst.ImportAlias(name=cst.Name(obj), asname=cst.AsName(cst.Name(asname)) if asname else None)


class _Extend(cst.CSTTransformer):
    def __init__(self, names: list[cst.ImportAlias]) -> None:
        super().__init__()
        self.names = names

    def leave_ImportFrom(self, original: cst.ImportFrom, updated: cst.ImportFrom) -> Any:
        assert not isinstance(updated.names, cst.ImportStar)
        existing = list(updated.names)
        first = existing[0].comma if existing else None
        one_a_line = isinstance(first, cst.Comma) and isinstance(first.whitespace_after, cst.ParenthesizedWhitespace)
        # one name a line: the new ones take the first one's layout
        comma = first if one_a_line else cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
        return updated.with_changes(names=[*(n.with_changes(comma=comma) for n in self.names), *existing])


def _is_docstring(statement: cst.CSTNode) -> bool:
    return (
        isinstance(statement, cst.SimpleStatementLine)
        and isinstance(statement.body[0], cst.Expr)
        and isinstance(statement.body[0].value, cst.SimpleString | cst.ConcatenatedString)
    )
