"""Code examples inside docstrings go through the Python rules, as those of a document do
(``codemods.frontends.docs.documents``).

**When.** After the Python rules ran on a ``.py`` file (``codemods.runner``), on their result. Not inside
``codemods.frontends.python.transform_python``: a document's examples go through that, so docs -> python -> docs would
be an import cycle, and a docstring inside a doc's example or a notebook cell is rare enough to leave.

**Which.** The docstring of the module, of a class or of a function (its first statement, a string literal)
whose text holds a doctest (``>>>``) or an rST block (``Example::``, ``.. code-block:: python``) and mentions
something a rule looks for (``codemods.project.prefilter``). Its text is migrated as a reStructuredText document: each
example block is dedented by its own indentation and a new line gets that indentation back, so the
docstring's margin comes back exactly as it was, and a TODO is a ``# TODO(...)`` line in the example
(``>>> # TODO(...)`` in a doctest). A block that does not parse is left alone, as in a document. Each
docstring is a document of its own: the module's imports are not the examples' (a reader runs them alone).

**Byte-safe or not at all.** The text migrated is the literal's text as spelled between its quotes, so each
of its lines is a line of the file and an edit is a splice. That spelling is the docstring's value only where
it holds no backslash escape, hence a literal is rewritten only when it is triple-quoted (not an f-string or
bytes), the migrated text does not close it, and either it is raw or no changed line (nor the line before a
change, which a trailing ``\\`` would join to it) holds a backslash; otherwise it stays as it is and a
``report`` of rule ``docs`` says the example was not migrated.

**Locations.** Findings carry the line and column in the file as it was read (the rules' own findings do too);
the rules never rewrite a string, so the k-th docstring of the rewritten file is the k-th of the one read.
"""

from __future__ import annotations

import ast
import difflib
import io
import re
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass

from codemods.frontends.notebooks.ipython import split_lines
from codemods.model import Finding, Options, Outcome

RULE = "docs"
_LITERAL = re.compile(r"""(?P<prefix>[rRuU]?)(?P<quote>"{3}|'{3}|"|')(?P<body>.*)(?P=quote)""", re.DOTALL)
#: A doctest prompt, a line ending in ``::`` (``Example::``, ``.. testcode::``) or a ``code-block`` directive.
_EXAMPLE = re.compile(r">>>|::[ \t\r]*$|\.\.[ \t]+(?:code|sourcecode)", re.MULTILINE)
#: The path the document is migrated under: its suffix picks the rST reader.
_DOCUMENT = "docstring.rst"


@dataclass(frozen=True)
class _Docstring:
    """A docstring literal from ``source[start]``; ``body`` is the text between its quotes, as spelled."""

    start: int
    line: int  # of the opening quotes, 1-based
    column: int  # of the body's first character, 1-based
    prefix: str
    quote: str
    body: str


def _docstring_nodes(tree: ast.Module) -> Iterator[ast.Constant]:
    """The docstring constants of ``tree`` in source order."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        body = getattr(node, "body", None)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and body:
            first = body[0]
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                yield first.value
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


def _docstrings(source: str, tree: ast.Module) -> list[_Docstring | None]:
    """Each docstring of ``tree`` (None: not one string literal, so never rewritten)."""
    lines = split_lines(source)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(line: int, byte_column: int) -> int:  # ast's columns count UTF-8 bytes
        return starts[line - 1] + len(lines[line - 1].encode("utf-8")[:byte_column].decode("utf-8", "replace"))

    found: list[_Docstring | None] = []
    for node in _docstring_nodes(tree):
        assert node.end_lineno is not None and node.end_col_offset is not None
        start, end = offset(node.lineno, node.col_offset), offset(node.end_lineno, node.end_col_offset)
        match = _LITERAL.fullmatch(source, start, end)
        if match is None or not _one_token(source[start:end]):
            found.append(None)
            continue
        column = match.start("body") - starts[node.lineno - 1] + 1
        found.append(_Docstring(start, node.lineno, column, match["prefix"], match["quote"], match["body"]))
    return found


def _one_token(literal: str) -> bool:
    """``literal`` is a single string token (not ``'''a''' '''b'''``, which the pattern above also matches)."""
    try:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(literal).readline) if t.type == tokenize.STRING]
    except (tokenize.TokenError, SyntaxError):
        return False
    return len(tokens) == 1 and tokens[0].string == literal


def _unsafe(docstring: _Docstring, new: str) -> str | None:
    """Why ``new`` cannot replace the docstring's body byte for byte (None: it can)."""
    if len(docstring.quote) != 3:
        return "the docstring is not triple-quoted"
    if not _one_token(docstring.prefix + docstring.quote + new + docstring.quote):
        return f"the migrated example would end the {docstring.quote} string early"
    if "r" in docstring.prefix.lower():
        return None
    old_lines, new_lines = split_lines(docstring.body), split_lines(new)
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal" and any("\\" in line for line in old_lines[max(i1 - 1, 0) : i2] + new_lines[j1:j2]):
            return "the docstring is no raw string and a changed line holds a backslash, which it reads as an escape"
    return None


def _has_example(docstring: _Docstring | None) -> bool:
    from codemods.project.prefilter import doc_text_triggered

    return docstring is not None and _EXAMPLE.search(docstring.body) is not None and doc_text_triggered(docstring.body)


def migrate_docstrings(outcome: Outcome, text: str, options: Options) -> Outcome:
    """``outcome`` (the Python rules' result for ``text``) with its docstrings' examples migrated."""
    from codemods.frontends.docs.documents import transform_doc

    if outcome.error is not None or _EXAMPLE.search(text) is None:
        return outcome
    try:
        before = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return outcome
    read = _docstrings(text, before)
    if not any(map(_has_example, read)):
        return outcome
    source, current = outcome.source, read
    if source != text:
        try:
            current = _docstrings(source, ast.parse(source))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return outcome
        if [d and d.body for d in read] != [d and d.body for d in current]:
            read = current  # not expected (the rules never rewrite a string): locate in the rewritten file
    pieces, done, findings = [], 0, list(outcome.findings)
    for docstring, located in zip(current, read, strict=True):
        if docstring is None or located is None or not _has_example(docstring):
            continue
        migrated = transform_doc(docstring.body, options, _DOCUMENT)
        if migrated.changed and (why := _unsafe(docstring, migrated.source)) is not None:
            message = f"a code example in this docstring was not migrated: {why}; migrate it by hand"
            findings.append(Finding(RULE, message, located.line, located.column, "report"))
            continue
        findings.extend(_in_file(finding, located) for finding in migrated.findings)
        if migrated.changed:
            body = docstring.start + len(docstring.prefix) + len(docstring.quote)
            pieces += [source[done:body], migrated.source]
            done = body + len(docstring.body)
    result = "".join(pieces) + source[done:]
    ordered = tuple(sorted(findings, key=lambda f: (f.line, f.column, f.rule, f.message)))
    return Outcome(result, outcome.changed or result != source, ordered, outcome.error, outcome.parsed)


def _in_file(finding: Finding, docstring: _Docstring) -> Finding:
    """``finding`` (at a line and column of the docstring's body) at the file's."""
    column = finding.column + (docstring.column - 1 if finding.line == 1 else 0)
    return Finding(finding.rule, finding.message, docstring.line + finding.line - 1, column, finding.kind)
