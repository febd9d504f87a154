"""Jupyter notebooks (``.ipynb``): code cells go through the Python rules; every other byte stays as it was.

**One module per notebook.** The code cells are migrated together as one Python module, in notebook order,
so that what the rules decide from the whole file -- the imports of cell 1 resolving ``DDPPlugin`` in cell 5,
a dict filled in one cell and splatted into a Trainer in the next -- is decided as in a script. (Cell by cell
with the earlier cells' imports visible would need every rule to know about a prelude.) Before each cell but
the first goes a separator line, a statement no rule resolves (a comment could go with a statement a rule
removes): ``import __migrate_trainer_cell_<n>__`` before a cell that starts with an import, so the leading
import block the rules add to runs on across import cells, else the bare name ``__migrate_trainer_cell_<n>__``,
which ends it. The rewritten module is split on those lines again, each found once and in order.

**Added imports** therefore land where a script gets them, at the end of the leading import block: in the
first code cell that starts with imports, or the import cells right after it. A first cell that starts with
code would get them at its top; a notebook gets them after the leading imports of the first cell that starts
with one instead (:func:`hoist_imports`), where a reader looks for them.

**IPython lines** (``!pip``, ``%matplotlib``, ``obj?``, a ``%%time`` first line) are masked line for line
(``codemods.frontends.notebooks.ipython``) and put back byte for byte; a cell under another cell magic (``%%bash``) is
no Python and stays as it is. A cell that does not parse even so stays as it is too, with a finding (kind ``todo`` when
it mentions something a rule looks for, so ``--check`` fails until someone migrates it by hand, else
``report``); the other cells migrate. A notebook that is not JSON fails (left byte for byte), like a ``.py``
file that does not parse; one whose kernel is not Python is left alone.

**Bytes.** The JSON is parsed only to read it; the file is rewritten by replacing the text of the changed
cells' ``"source"`` values at the offsets a small scanner (on the standard library's ``scanstring`` and
``raw_decode``) found, so outputs, metadata, ids, key order and indentation are never re-serialised. A list
source keeps the literal of every line that did not change and the separator between lines as it was; a new
line is encoded as the file encodes strings (``\\uXXXX`` escapes or raw UTF-8, as its sources already do).

**Locations.** A finding's line and column are those in the ``.ipynb`` file of the source text it is about
(for a list source, each source line is a line of the file), and its message ends with ``(cell N, line L)``
(N counts every cell from 1, markdown included, as editors number them). The file position is what
``--format github``/SARIF can use: GitHub annotates lines of the file as stored, and the project index
already names notebook uses by file line; the cell and line in the message are for the person reading.
"""

from __future__ import annotations

import ast
import difflib
import json
import os
import re
from dataclasses import dataclass, replace

from codemods.frontends.notebooks.ipython import mask, unmask
from codemods.frontends.notebooks.joined import chunk_at, hoist_imports, is_placeholder_node, module, split_module
from codemods.frontends.notebooks.shell import command_text, merge
from codemods.frontends.notebooks.sources import NotebookError, Source, language, position, read
from codemods.model import Finding, FindingKind, Options, Outcome, first_line

RULE = "notebook"


@dataclass
class _Cell:
    source: Source
    masked: str
    saved: dict[int, str]
    imports_first: bool  # its first statement (IPython lines aside) is an import
    first_line: int = 0  # in the module, 1-based

    @property
    def number(self) -> int:
        return self.source.cell


def _cells(sources: list[Source]) -> tuple[list[_Cell], list[tuple[Source, str, int]]]:
    """The code cells that are Python (masked), and the ones that do not parse: why, and on which line."""
    cells: list[_Cell] = []
    broken: list[tuple[Source, str, int]] = []
    counter = 0
    for source in sources:
        if not source.code:
            continue
        masked = mask(source.text, counter)
        if not masked.python:
            continue
        counter += len(masked.lines)
        try:
            body = [node for node in ast.parse(masked.text).body if not is_placeholder_node(node)]
        except SyntaxError as exc:
            broken.append((source, exc.msg, exc.lineno or 1))
            continue
        except (ValueError, RecursionError, MemoryError) as exc:
            broken.append((source, first_line(exc), 1))
            continue
        imports_first = bool(body) and isinstance(body[0], ast.Import | ast.ImportFrom)
        cells.append(_Cell(source, masked.text, masked.lines, imports_first))
    return cells, broken


def python_code(text: str) -> str:
    """The Python of a notebook's code cells as one module (IPython lines masked); "" for no notebook."""
    try:
        _, sources = read(text)
    except (NotebookError, ValueError):
        return ""
    return module(_cells(sources)[0])


# --- writing: the changed sources' text ---------------------------------------------------------------------------
_ESCAPED_NON_ASCII = re.compile(r"\\u(?:00[89a-fA-F]|0[1-9a-fA-F]|[1-9a-fA-F])")


def _ensure_ascii(text: str, sources: list[Source]) -> bool:
    """Whether the file writes non-ASCII as ``\\uXXXX`` (its sources decide; then the whole file; else not,
    as nbformat writes)."""
    literals = "".join(text[part.start : part.end] for source in sources for part in source.parts)
    for sample in (literals, text):
        if not sample.isascii():
            return False
        if _ESCAPED_NON_ASCII.search(sample):
            return True
    return False


def _encoded(text: str, source: Source, new: str, ascii_only: bool) -> str:
    """The JSON text of ``source`` holding ``new``: unchanged lines keep their literal, new ones are encoded."""
    if not source.listed:
        return json.dumps(new, ensure_ascii=ascii_only)
    parts = source.parts
    lines = new.splitlines(keepends=True)  # as nbformat splits a source into a list
    if not lines:
        return "[]"
    if not parts:
        return "[" + ", ".join(json.dumps(line, ensure_ascii=ascii_only) for line in lines) + "]"
    opening = text[source.start + 1 : parts[0].start]
    closing = text[parts[-1].end : source.end - 1]
    separator = text[parts[0].end : parts[1].start] if len(parts) > 1 else "," + opening
    literals: list[str] = []
    matcher = difflib.SequenceMatcher(None, [part.value for part in parts], lines, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            literals.extend(text[part.start : part.end] for part in parts[i1:i2])
        else:
            literals.extend(json.dumps(line, ensure_ascii=ascii_only) for line in lines[j1:j2])
    return "[" + opening + separator.join(literals) + closing + "]"


def ends_like(new: str, old: str) -> str:
    """``new`` with the blank lines ``old`` starts and ends with (the module joined cells with newlines)."""
    core = new.strip("\r\n")
    lead = old[: len(old) - len(old.lstrip("\r\n"))]
    return lead + core + old[len(old.rstrip("\r\n")) :] if core else ""


# --- findings: where they are in the file ---------------------------------------------------------------------------
def _located(text: str, source: Source, finding: Finding, line: int) -> Finding:
    row, column = position(text, source, line, finding.column)
    message = f"{finding.message} (cell {source.cell}, line {line})"
    return Finding(finding.rule, message, row, column, finding.kind)


# --- the entry points -----------------------------------------------------------------------------------------------
def transform_notebook(text: str, options: Options, path: str = "") -> Outcome:
    """Migrate a notebook's code cells, and the command lines of its cells (``shell``); the file stays byte for
    byte where no cell changed. ``path``: the notebook's, for the project index."""
    try:
        notebook, sources = read(text)
    except NotebookError as exc:
        return Outcome(text, changed=False, error=str(exc))
    if language(notebook) != "python":
        return Outcome(text, changed=False, parsed=False)
    code = _code_cells(text, sources, options)
    if code.error is not None:
        return Outcome(text, False, code.findings, code.error)
    findings, texts = list(code.findings), code.texts
    for source in sources if "trainer" in text else ():
        before = texts.get(source.cell, source.text)
        commands = command_text(before, source.code)
        if "trainer" not in commands:
            continue
        from codemods.frontends.commands.front import transform_commands

        outcome = transform_commands(commands, options, path)
        findings += [_located(text, source, finding, finding.line) for finding in outcome.findings]
        if outcome.changed:
            texts[source.cell] = merge(before, commands, outcome.source)
    found = tuple(sorted(findings, key=lambda f: (f.line, f.column, f.rule, f.message)))
    if not any(texts.get(source.cell, source.text) != source.text for source in sources):
        return Outcome(text, False, found, parsed=code.parsed)
    ascii_only = _ensure_ascii(text, sources)
    out, done = [], 0
    for source in sources:
        new = texts.get(source.cell, source.text)
        if new != source.text:
            out += [text[done : source.start], _encoded(text, source, new, ascii_only)]
            done = source.end
    result = "".join(out) + text[done:]
    return Outcome(result, result != text, found)


@dataclass
class _Code:
    """The code cells' migration: each changed cell's new text by cell number, the findings, and why it failed."""

    texts: dict[int, str]
    findings: tuple[Finding, ...]
    error: str | None = None
    parsed: bool = True


def _code_cells(text: str, sources: list[Source], options: Options) -> _Code:
    """The code cells migrated together as one module (see the module docstring)."""
    from codemods.frontends.python import prefilter_tokens, transform_python

    cells, broken = _cells(sources)
    findings = []
    for source, why, line in broken:
        kind: FindingKind = "todo" if any(token in source.text for token in prefilter_tokens(options)) else "report"
        message = f"the cell does not parse as Python, even with its IPython lines masked ({why}): left as it is"
        findings.append(_located(text, source, Finding(RULE, message, line, 1, kind), line))
    interactive = replace(options, interactive=True)  # a notebook's Trainer runs in its kernel
    outcome = transform_python(module(cells), interactive) if cells else Outcome("", changed=False, parsed=False)
    if outcome.error is not None:
        return _Code({}, tuple(findings), f"the code cells as one module: {outcome.error}")
    for finding in outcome.findings:
        cell, line = chunk_at(cells, finding.line)
        findings.append(_located(text, cell.source, finding, line))
    if not outcome.changed:
        return _Code({}, tuple(findings), parsed=outcome.parsed)
    texts = split_module(outcome.source, cells)
    if texts is None:
        return _Code({}, tuple(findings), "a rule moved the line between two cells: left as it is")
    hoist_imports(cells, texts)
    changed: dict[int, str] = {}
    for cell, new in zip(cells, texts, strict=True):
        restored = unmask(new, cell.saved)
        if restored is None:
            return _Code({}, tuple(findings), f"cell {cell.source.cell}: a rule moved an IPython line")
        changed[cell.source.cell] = ends_like(restored, cell.source.text)
    return _Code(changed, tuple(findings))


def diff(path: str, before: str, after: str) -> str:
    """A unified diff of each changed cell's source lines (``a/nb.ipynb (cell 3)``), not of the JSON lines."""
    try:
        old = {source.cell: source for source in read(before)[1]}
        new = read(after)[1]
    except NotebookError:
        return ""
    names = (path, path) if os.path.isabs(path) else (f"a/{path}", f"b/{path}")  # as ``runner.unified_diff``
    out: list[str] = []
    for source in new:
        previous = old.get(source.cell)
        if previous is None or previous.text == source.text:
            continue
        lines = difflib.unified_diff(
            [line if line.endswith("\n") else line + "\n" for line in previous.text.splitlines(keepends=True)],
            [line if line.endswith("\n") else line + "\n" for line in source.text.splitlines(keepends=True)],
            f"{names[0]} (cell {source.cell})",
            f"{names[1]} (cell {source.cell})",
        )
        out.extend(lines)
    return "".join(out)
