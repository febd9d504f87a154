"""Code examples in docs (Markdown, reStructuredText): their Python goes through the Python rules.

**What is code.** Markdown: fenced blocks (```` ``` ```` or ``~~~``) tagged ``python``/``py``/``python3``/
``py3``/``pycon``, or untagged; a fence indented under a list item is dedented by the fence's indentation.
reStructuredText: the bodies of ``.. code-block::``/``.. code::``/``.. sourcecode::`` (tagged as above, or
untagged), ``.. testcode::``, ``.. testsetup::`` and ``.. doctest::`` (option lines such as ``:linenos:``
are not code), ``::`` literal blocks, and doctest paragraphs. A body is dedented by its smallest indentation.
Doctest lines (``>>> ``, ``... ``) anywhere in those are examples: the prompts are cut off, the code
migrated, the prompts put back; output lines are never touched. A block that does not parse stays as it is
without a finding (docs hold pseudo-code and elisions); an untagged one or a literal block must also look like
Python (a call, an import, a ``def`` or a ``class``), so ``ls`` or ``trainer.gpus=2`` in a shell block is no
Python. Everything else is left to the command-line front end (``codemods.frontends.commands``).

**One module per document**, as for a notebook's cells (``codemods.frontends.notebooks.notebook``, whose helpers this
reuses): a block may use what an earlier block imported, and the imports a rule adds go where a script gets them, at the
end of the first leading import block. Each doctest example is a block of its own, so its output lines stay
between the examples. The rewritten module is cut back into blocks; in each, the lines that did not change
keep their bytes (prefix included) and a new or changed line gets the block's indentation, or in a doctest the
prompt a doctest needs: ``>>> `` where a statement (or a comment above one) starts, else ``... ``. A TODO a
rule writes is a ``#`` comment line in the block, a Python comment there too.

**Locations.** A finding's line and column are those of the document (each code line is one document line).
"""

from __future__ import annotations

import ast
import difflib
import re
from collections.abc import Iterator
from dataclasses import dataclass

from codemods.frontends.notebooks.ipython import split_lines
from codemods.frontends.notebooks.joined import chunk_at, hoist_imports, module, split_module
from codemods.frontends.notebooks.notebook import ends_like
from codemods.kinds import RST_SUFFIXES
from codemods.model import Finding, Options, Outcome
from legacy_api.lightning15 import LEGACY_FLAGS

RULE = "docs"
#: Code-block languages that are Python (``pycon``: an interpreter session, migrated as doctest lines).
PYTHON_LANGUAGES = frozenset({"python", "py", "python3", "py3", "pycon"})

_FENCE = re.compile(r"([ \t]*)(`{3,}|~{3,})[ \t]*(.*?)[ \t]*")
_DIRECTIVE = re.compile(r"([ \t]*)\.\.[ \t]+(code-block|code|sourcecode|testcode|testsetup|doctest)::[ \t]*(\S*).*")
_OPTION = re.compile(r"[ \t]+:[^:\s][^:]*:(?:[ \t]|$)")
_PROMPT = re.compile(r"([ \t]*)>>>(?: |(?=[\r\n]|$))")
_LOOKS_LIKE_PYTHON = (ast.Call, ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


@dataclass
class _Block:
    """Consecutive document lines holding code: ``lines[start + k] == prefixes[k] + codes[k]``."""

    number: int
    start: int  # the index of its first line in the document's lines
    prefixes: list[str]
    codes: list[str]
    indent: str  # what a new line starts with (the prompt's indentation, in a doctest)
    doctest: bool
    imports_first: bool = False
    first_line: int = 0  # in the module, 1-based

    @property
    def masked(self) -> str:
        return "".join(self.codes)


def _bare(line: str) -> str:
    return line.rstrip("\r\n")


def _width(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _blank(line: str) -> bool:
    return not line.strip()


# --- finding the blocks ---------------------------------------------------------------------------------------------
Candidate = tuple[int, list[str], list[str], str, bool, bool]  # start, prefixes, codes, indent, doctest, tagged


def _dedented(lines: list[str], start: int, stop: int, indent: str, tagged: bool) -> Iterator[Candidate]:
    """The code of ``lines[start:stop]`` less ``indent``, or its doctest examples when it starts with one."""
    first = next((line for line in lines[start:stop] if not _blank(line)), None)
    if first is None:
        return
    if _PROMPT.match(first):
        yield from _doctests(lines, start, stop)
        return
    prefixes, codes = [], []
    for line in lines[start:stop]:
        cut = 0
        while cut < len(indent) and cut < len(line) and line[cut] == indent[cut]:
            cut += 1
        prefixes.append(line[:cut])
        codes.append(line[cut:])
    yield start, prefixes, codes, indent, False, tagged


def _doctests(lines: list[str], start: int, stop: int) -> Iterator[Candidate]:
    """Each run of examples of ``lines[start:stop]`` with no output between them: ``>>>`` lines and the ``...``
    lines after them (one block, so a TODO comment a run wrote stays right above its statement)."""
    i = start
    while i < stop:
        match = _PROMPT.match(lines[i])
        if match is None:
            i += 1
            continue
        indent, first = match.group(1), i
        prompt = re.compile(re.escape(indent) + r"(?:>>>|\.\.\.)(?: |(?=[\r\n]|$))")
        prefixes: list[str] = []
        codes: list[str] = []
        while i < stop and (found := prompt.match(lines[i])) is not None:
            prefixes.append(found.group(0))
            codes.append(lines[i][found.end() :])
            i += 1
        yield first, prefixes, codes, indent, True, True


def _language(info: str) -> str:
    words = info.split()
    return words[0].strip("{}.").lower() if words else ""


def _markdown(lines: list[str]) -> Iterator[Candidate]:
    i = 0
    while i < len(lines):
        match = _FENCE.fullmatch(_bare(lines[i]))
        if match is None or (match.group(2)[0] == "`" and "`" in match.group(3)):
            i += 1
            continue
        indent, fence, info = match.groups()
        closing = re.compile(r"[ \t]*" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}[ \t]*")
        end = next((j for j in range(i + 1, len(lines)) if closing.fullmatch(_bare(lines[j]))), None)
        if end is None:
            return  # an unclosed fence runs to the end of the document: nothing after it is prose
        language = _language(info)
        if language in PYTHON_LANGUAGES or not language:
            yield from _dedented(lines, i + 1, end, indent, bool(language))
        i = end + 1


def _indented_body(lines: list[str], i: int, width: int) -> tuple[int, int]:
    """From line ``i``: the lines blank or indented deeper than ``width``; (first code line, end) of them."""
    end = i
    while end < len(lines) and (_blank(lines[end]) or _width(lines[end]) > width):
        end += 1
    while end > i and _blank(lines[end - 1]):
        end -= 1
    return i, end


def _rst(lines: list[str]) -> Iterator[Candidate]:
    i = 0
    while i < len(lines):
        line = _bare(lines[i])
        directive = _DIRECTIVE.fullmatch(line)
        if directive is not None:
            indent, name, argument = directive.groups()
            start, end = _indented_body(lines, i + 1, len(indent))
            while start < end and _OPTION.match(lines[start]):
                start += 1
            while start < end and _blank(lines[start]):
                start += 1
            language = "python" if name in ("testcode", "testsetup", "doctest") else argument.lower()
            if start < end and (language in PYTHON_LANGUAGES or not language):
                yield from _dedented(lines, start, end, _indent(lines, start, end), bool(language))
            i = max(end, i + 1)
        elif line.rstrip().endswith("::") and not line.lstrip().startswith(".."):
            start, end = _indented_body(lines, i + 1, _width(line))
            while start < end and _blank(lines[start]):
                start += 1
            if start < end and start > i + 1:  # a literal block follows a blank line
                yield from _dedented(lines, start, end, _indent(lines, start, end), False)
            i = max(end, i + 1)
        elif _PROMPT.match(line):
            end = next((j for j in range(i, len(lines)) if _blank(lines[j])), len(lines))
            yield from _doctests(lines, i, end)
            i = end
        else:
            i += 1


def _indent(lines: list[str], start: int, stop: int) -> str:
    body = [line for line in lines[start:stop] if not _blank(line)]
    shortest = min(body, key=_width)
    return shortest[: _width(shortest)]


def _blocks(lines: list[str], rst: bool) -> list[_Block]:
    """The document's code blocks that parse (and, untagged, look like Python), numbered from 1."""
    blocks: list[_Block] = []
    for start, prefixes, codes, indent, doctest, tagged in (_rst if rst else _markdown)(lines):
        try:
            body = ast.parse("".join(codes)).body
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        if not tagged and not any(isinstance(node, _LOOKS_LIKE_PYTHON) for stmt in body for node in ast.walk(stmt)):
            continue
        imports_first = bool(body) and isinstance(body[0], ast.Import | ast.ImportFrom)
        blocks.append(_Block(len(blocks) + 1, start, prefixes, codes, indent, doctest, imports_first))
    return blocks


def _unresolved(text: str) -> Iterator[tuple[int, int, str]]:
    """``Trainer(gpus=2)`` / ``pl.Trainer(...)`` calls passing a 1.5 flag where the examples never bind the name
    (the rules resolve names through imports, so these stay): (line, column, message) in the module."""
    tree = ast.parse(text)
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            bound.update((alias.asname or alias.name).partition(".")[0] for alias in node.names)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            bound.add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bound.add(node.name)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) and func.id == "Trainer" else None
        if isinstance(func, ast.Attribute) and func.attr == "Trainer" and isinstance(func.value, ast.Name):
            name = func.value.id
        flags = sorted(k.arg for k in node.keywords if k.arg in LEGACY_FLAGS)
        if name is None or name in bound or not flags:
            continue
        spelled = ast.unparse(func)
        message = (
            f"{spelled}({', '.join(f + '=' for f in flags)}...) stays as it is: the examples never import {name}, "
            f"so nothing says it is Lightning's; import it in an earlier example or migrate the call by hand"
        )
        yield node.lineno, node.col_offset + 1, message


# --- writing a block back -------------------------------------------------------------------------------------------
def _prompted(text: str) -> set[int]:
    """The lines (1-based) of ``text`` that take a ``>>>`` prompt: a statement's first, and comments above one."""
    starts: set[int] = set()
    for node in ast.parse(text).body:
        lines = [node.lineno] + [item.lineno for item in getattr(node, "decorator_list", [])]
        starts.add(min(lines))
    lines = split_lines(text)
    below = True  # the line below starts a statement (or there is none)
    for number in range(len(lines), 0, -1):
        line = lines[number - 1]
        if line.startswith("#") and below:
            starts.add(number)
        elif not _blank(line):
            below = number in starts
    return starts


def _rendered(block: _Block, lines: list[str], new: str) -> list[str]:
    """The document lines of ``block`` holding ``new``: unchanged lines as they were, new ones prefixed."""
    new_lines = split_lines(new)
    starts = _prompted(new) if block.doctest else set()
    out: list[str] = []
    matcher = difflib.SequenceMatcher(None, block.codes, new_lines, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            out.extend(lines[block.start + i1 : block.start + i2])
            continue
        for number in range(j1 + 1, j2 + 1):
            line = new_lines[number - 1]
            if block.doctest:
                prompt = ">>>" if number in starts else "..."
                out.append(block.indent + prompt + ("" if _blank(line) else " ") + line)
            else:
                out.append(line if _blank(line) else block.indent + line)
    return out


# --- the entry point ------------------------------------------------------------------------------------------------
def transform_doc(text: str, options: Options, path: str) -> Outcome:
    """Migrate the Python code examples of a Markdown or reStructuredText document; other bytes stay."""
    from codemods.frontends.python import transform_python

    lines = split_lines(text)
    blocks = _blocks(lines, path.endswith(RST_SUFFIXES))
    if not blocks:
        return Outcome(text, changed=False, parsed=False)
    source = module(blocks)
    outcome = transform_python(source, options)
    if outcome.error is not None:
        message = f"the code examples as one module: {outcome.error}; left as they are"
        return Outcome(text, False, (Finding(RULE, message, blocks[0].start + 1, 1, "report"),))
    findings = []
    unresolved = [Finding(RULE, message, line, column, "report") for line, column, message in _unresolved(source)]
    for finding in (*outcome.findings, *unresolved):
        block, line = chunk_at(blocks, finding.line)
        line = min(line, len(block.codes))
        column = finding.column + len(block.prefixes[line - 1])
        findings.append(Finding(finding.rule, finding.message, block.start + line, column, finding.kind))
    found = tuple(sorted(findings, key=lambda f: (f.line, f.column, f.rule, f.message)))
    if not outcome.changed:
        return Outcome(text, False, found, parsed=outcome.parsed)
    texts = split_module(outcome.source, blocks)
    if texts is None:
        moved = Finding(RULE, "a rule moved the line between two code blocks: left as it is", 1, 1, "report")
        return Outcome(text, False, (*found, moved))
    hoist_imports(blocks, texts)
    out, done = [], 0
    for block, new in zip(blocks, texts, strict=True):
        new = ends_like(new, block.masked)
        if new != block.masked:
            out += lines[done : block.start] + _rendered(block, lines, new)
            done = block.start + len(block.codes)
    result = "".join(out + lines[done:])
    return Outcome(result, result != text, found)
