"""Strings anywhere in a YAML file: ``_target_``/``class_path`` class renames and ``${trainer.x}`` interpolations.

Only the characters of the string that differ are replaced, inside its quotes, so the quoting stays. A
string whose text is not its value (escapes, a multi-line or block scalar) is reported for a hand edit.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from codemods.frontends.yaml.nodes import Document
from codemods.frontends.yaml.text import Edit
from codemods.model import FindingKind, Options, todo_comment
from codemods.plan.resolve import resolve

INTERPOLATION = re.compile(r"\$\{trainer\.(\w+)\}")
Find = Callable[[str, str, int, FindingKind], None]
Path = tuple[Any, ...]
Pair = tuple[Path, Any, Node]


def pairs(node: Node, path: Path = (), seen: set[int] | None = None) -> list[Pair]:
    """(path, key or index, value node) of every mapping value and list item, each node once."""
    seen = set() if seen is None else seen
    out: list[Pair] = []
    if id(node) in seen:
        return out
    seen.add(id(node))
    children: list[tuple[Any, Node]] = []
    if isinstance(node, MappingNode):
        children = [(k.value if isinstance(k, ScalarNode) else repr(k), v) for k, v in node.value]
    elif isinstance(node, SequenceNode):
        children = list(enumerate(node.value))
    for key, child in children:
        out.append(((*path, key), key, child))
        out.extend(pairs(child, (*path, key), seen))
    return out


def string_edit(doc: Document, node: ScalarNode, value: str, new: str) -> Edit | None:
    """Replace only what differs inside the scalar's text, keeping its quotes; None when the text has escapes."""
    start, end = int(node.start_mark.index), int(node.end_mark.index)
    raw = doc.text[start:end]
    if node.style in ("'", '"'):
        start, end, raw = start + 1, end - 1, raw[1:-1]
    elif node.style is not None:
        return None
    if raw != value:
        return None
    prefix = 0
    while prefix < min(len(value), len(new)) and value[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < min(len(value), len(new)) - prefix and value[-1 - suffix] == new[-1 - suffix]:
        suffix += 1
    return Edit(start + prefix, end - suffix, new[prefix : len(new) - suffix])


def rename_edits(doc: Document, options: Options, find: Find) -> list[tuple[Edit, Path]]:
    """``_target_``/``class_path`` values that name a renamed class."""
    out = []
    for path, key, node in pairs(doc.node):
        if key not in ("_target_", "class_path") or not isinstance(node, ScalarNode):
            continue
        if node.tag != "tag:yaml.org,2002:str":
            continue
        res = resolve(str(node.value), options.target_tuple)
        if res is None or res.new is None:
            continue
        edit = string_edit(doc, node, str(node.value), res.new)
        line = doc.lines.line(int(node.start_mark.index)) + 1
        if edit is None:
            find(res.rule, f"{node.value} -> {res.new}: change it by hand (escaped string)", line, "todo")
            continue
        find(res.rule, f"{node.value} -> {res.new}", line, "fix")
        out.append((edit, path))
    return out


def interpolation_edits(
    doc: Document, moved: dict[str, str | None], options: Options, find: Find, busy: list[tuple[int, int]]
) -> list[tuple[Edit, Path]]:
    """``${trainer.gpus}`` -> ``${trainer.devices}`` where the key moved (``moved``); a TODO where it is gone,
    written on a line of its own above the line of the string when that line is a block mapping key or list item
    (else only reported: a comment line inside a flow collection or a block scalar would be text)."""
    out = []
    for path, _, node in pairs(doc.node):
        if not isinstance(node, ScalarNode) or "${trainer." not in str(node.value):
            continue
        value = str(node.value)
        line = doc.lines.line(int(node.start_mark.index)) + 1
        gone: list[str] = []
        follow = functools.partial(_follow, moved=moved, options=options, find=find, line=line, gone=gone)
        new = INTERPOLATION.sub(follow, value)
        todo = _todo_line(doc, node, gone, busy)
        if todo is not None:
            out.append((todo, path))
        if new == value:
            continue
        edit = string_edit(doc, node, value, new)
        if edit is None or any(a < edit.end and edit.start < b for a, b in busy):
            find("yaml_interpolations", f"{value} -> {new}: change it by hand", line, "todo")
            continue
        out.append((edit, path))
    return out


_BLOCK_LINE = re.compile(r"[ \t]*(?:-[ \t]+)?[\w.-]+[ \t]*:[ \t]")


def _todo_line(doc: Document, node: ScalarNode, messages: list[str], busy: list[tuple[int, int]]) -> Edit | None:
    """A ``# TODO(migrate-trainer): ...`` line above the line of ``node`` (see :func:`interpolation_edits`)."""
    if not messages or node.style in ("|", ">"):
        return None
    lines = doc.lines
    start = lines.start(int(node.start_mark.index))
    if not _BLOCK_LINE.match(lines.text, start) or any(a <= start < b for a, b in busy):
        return None
    text = "".join(f"{lines.indent(start)}{todo_comment(m, 'yaml_interpolations')}{lines.newline}" for m in messages)
    return Edit(start, start, text, order=-1)


def _follow(
    match: re.Match[str], moved: dict[str, str | None], options: Options, find: Find, line: int, gone: list[str]
) -> str:
    old = match.group(1)
    if old not in moved:
        return match.group(0)
    new = moved[old]
    if new is None:
        message = f"${{trainer.{old}}}: {old} was rewritten; update this reference"
        find("yaml_interpolations", message, line, "todo")
        gone.append(message)
        return match.group(0)
    if not options.enabled("yaml_interpolations"):
        return match.group(0)
    find("yaml_interpolations", f"${{trainer.{old}}} -> ${{trainer.{new}}}", line, "fix")
    return f"${{trainer.{new}}}"
