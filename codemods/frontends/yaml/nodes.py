"""Where things are in a YAML document: the composed node graph (with marks), trainer sections and their keys.

``ruamel.yaml``'s composer gives every node its start and end offsets in the stream. This module reads the
Trainer flags of a section into :class:`~codemods.plan.model.Value` objects (``Value.node`` is the composed node),
computes where each key's text ends, and says when a section is not safe to edit as text (anchors, aliases,
merge keys, tags, complex keys).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

from ruamel.yaml.constructor import SafeConstructor
from ruamel.yaml.error import YAMLError
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from codemods.frontends.yaml.text import Lines
from codemods.plan.model import UNKNOWN, Value
from legacy_api.renames import COMPAT, PL, STRATEGY_CLASSES

TRAINER_TARGETS = {
    f"{PL}.Trainer": PL,
    f"{PL}.trainer.Trainer": PL,
    f"{PL}.trainer.trainer.Trainer": PL,
    f"{COMPAT}.Runner": COMPAT,
    f"{COMPAT}.AcceleratorConnector": COMPAT,
}
_NULL = "tag:yaml.org,2002:null"
_MERGE = "tag:yaml.org,2002:merge"


@dataclass
class Entry:
    """One ``key: value`` pair of a section, with the offsets the edits need."""

    key: str
    key_node: ScalarNode
    value: Node
    #: Offset just past the value's last character (past the ``:`` for an empty value).
    end: int

    @property
    def start(self) -> int:
        return int(self.key_node.start_mark.index)


@dataclass
class Section:
    """A mapping of Trainer flags: ``trainer:``, a ``_target_: ...Trainer`` mapping, a Hydra group file."""

    node: MappingNode
    root: str
    #: Keys (and list indices) from the document root to the mapping.
    path: tuple[Any, ...]
    name: str
    entries: list[Entry] = field(default_factory=list)
    #: The ``trainer:`` key holding the section, when there is one.
    owner: ScalarNode | None = None


class Document:
    """One composed document of the stream and the text it came from."""

    def __init__(self, node: Node, text: str, lines: Lines, constructor: SafeConstructor) -> None:
        self.node, self.text, self.lines, self.constructor = node, text, lines, constructor

    def construct(self, node: Node) -> Any:
        return self.constructor.construct_object(node, deep=True)

    def end(self, node: Node, key: ScalarNode | None = None) -> int:
        """Offset just past ``node``'s last character (``key``: the key it is the value of)."""
        if isinstance(node, ScalarNode):
            if node.value == "" and node.style is None and node.tag == _NULL and key is not None:
                colon = self.text.find(":", int(key.end_mark.index))
                return colon + 1 if colon != -1 else int(key.end_mark.index)
            return int(node.end_mark.index)
        if getattr(node, "flow_style", False) or not node.value:
            return int(node.end_mark.index)
        if isinstance(node, MappingNode):
            last_key, last_value = node.value[-1]
            return self.end(last_value, last_key)
        return self.end(node.value[-1])

    def after(self, node: Node, key: ScalarNode | None = None) -> int:
        """Offset of the line after ``node``'s last line (where a following line can be inserted)."""
        end = self.end(node, key)
        if end > 0 and self.text[end - 1] == "\n":
            return end
        return self.lines.next_start(end)

    def entries(self, mapping: MappingNode) -> list[Entry]:
        out = []
        for key, value in mapping.value:
            name = str(key.value) if isinstance(key, ScalarNode) else repr(key)
            out.append(Entry(name, key, value, self.end(value, key if isinstance(key, ScalarNode) else None)))
        return out


def compose(text: str) -> list[Document]:
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    nodes = [node for node in yaml.compose_all(text) if node is not None]
    constructor = YAML(typ="safe", pure=True).constructor
    scalars: list[tuple[int, int]] = []
    seen: set[int] = set()
    for node in nodes:
        for child in walk(node, seen):
            if isinstance(child, ScalarNode):
                scalars.append((int(child.start_mark.index), int(child.end_mark.index)))
    lines = Lines(text, scalars)
    return [Document(node, text, lines, constructor) for node in nodes]


def walk(node: Node, seen: set[int] | None = None) -> Iterator[Node]:
    """Every node under ``node`` (itself included), each once (aliases point at nodes seen before)."""
    seen = set() if seen is None else seen
    stack = [node]
    while stack:
        current = stack.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        if isinstance(current, MappingNode):
            for key, value in reversed(current.value):
                stack.extend((value, key))
        elif isinstance(current, SequenceNode):
            stack.extend(reversed(current.value))


def _target(node: MappingNode) -> str | None:
    for key, value in node.value:
        if isinstance(key, ScalarNode) and key.value == "_target_" and isinstance(value, ScalarNode):
            return str(value.value)
    return None


def sections(doc: Document, path: PurePath, paths: frozenset[tuple[str, ...]] = frozenset()) -> list[Section]:
    """The Trainer sections of one document, outermost first, in document order.

    ``paths``: key paths the project passes to a Trainer under other keys (``ProjectIndex.section_paths``): a
    mapping whose keys end with one is a section too (a Hydra ``trainer/`` group file's keys start at ``trainer``).
    """
    found: list[Section] = []
    seen: set[int] = set()
    group = ("trainer",) if path.parent.name == "trainer" else ()

    def splatted(keys: tuple[Any, ...]) -> bool:
        full = (*group, *keys)
        return any(len(full) >= len(p) and full[len(full) - len(p) :] == p for p in paths)

    def visit(node: Node, keys: tuple[Any, ...], owner: ScalarNode | None) -> None:
        if id(node) in seen:
            return
        seen.add(id(node))
        if isinstance(node, MappingNode):
            target = _target(node)
            name = ".".join(str(k) for k in keys) if keys else "trainer"
            if target in TRAINER_TARGETS:
                found.append(Section(node, TRAINER_TARGETS[target], keys, name, doc.entries(node), owner))
            elif not keys and path.parent.name == "trainer" and not _splats_inside(node, paths):
                found.append(Section(node, PL, keys, "trainer", doc.entries(node)))
            elif target is None and keys and (keys[-1] == "trainer" or (paths and splatted(keys))):
                found.append(Section(node, PL, keys, name, doc.entries(node), owner))
            for key, value in node.value:
                label = key.value if isinstance(key, ScalarNode) else repr(key)
                visit(value, (*keys, label), key if isinstance(key, ScalarNode) else None)
        elif isinstance(node, SequenceNode):
            for index, item in enumerate(node.value):
                visit(item, (*keys, index), None)

    visit(doc.node, (), None)
    return found


def _splats_inside(node: MappingNode, paths: frozenset[tuple[str, ...]]) -> bool:
    """Whether the project passes the Trainer a mapping under this group file's keys (``trainer.kwargs``), not
    the file itself."""
    keys = {key.value for key, _ in node.value if isinstance(key, ScalarNode)}
    return any(len(p) >= 2 and p[0] == "trainer" and p[1] in keys for p in paths)


def composed(doc: Document) -> bool:
    """Whether Hydra composes this document with other configs: it has a top-level ``defaults:`` list."""
    node = doc.node
    if not isinstance(node, MappingNode):
        return False
    return any(
        isinstance(key, ScalarNode) and key.value == "defaults" and isinstance(value, SequenceNode)
        for key, value in node.value
    )


def unsafe(doc: Document, section: Section) -> str | None:
    """Why the section cannot be edited as text (None: it can)."""
    node = section.node
    if node.anchor is not None:
        return f"the section is anchored (&{node.anchor}) and may be used elsewhere"
    names: set[str] = set()
    for key, _ in node.value:
        if not isinstance(key, ScalarNode):
            return "it has a complex (non-scalar) key"
        if key.tag == _MERGE or key.value == "<<":
            return "it uses a merge key (<<:)"
        if key.value in names:
            return f"the key {key.value} appears twice"
        names.add(str(key.value))
    for child in walk(node):
        if child is not node and getattr(child, "anchor", None) is not None:
            return f"it uses an anchor or alias (&{child.anchor} / *{child.anchor})"
        start = int(child.start_mark.index)
        if start < len(doc.text) and doc.text[start] == "!":
            return "it uses an explicit tag"
    return None


def _lit(value: Any) -> Any:
    if isinstance(value, str):
        return UNKNOWN if "${" in value else str(value)
    if isinstance(value, bool | int | float) or value is None:
        return value
    if isinstance(value, list) and all(isinstance(v, int | str) and not isinstance(v, bool) for v in value):
        return list(value)
    return UNKNOWN


def read(doc: Document, node: Node) -> Value:
    """A flag value: the composed node plus what can be read from it."""
    try:
        data = doc.construct(node)
    except YAMLError:  # a tag the safe loader does not know (``!foo``): not a literal, and unsafe() says so
        text = doc.text[int(node.start_mark.index) : doc.end(node)]
        return Value(node=node, source=text)
    out = Value(node=node, lit=_lit(data), source=data if isinstance(data, str) else repr(data))
    if isinstance(node, SequenceNode):
        out.items = [read(doc, item) for item in node.value]
    elif isinstance(data, dict) and isinstance(data.get("class_path"), str):
        out.is_strategy = data["class_path"].rpartition(".")[2] in STRATEGY_CLASSES
    return out


@dataclass(frozen=True)
class Style:
    """How the file indents: the step of nested mappings, and where a block sequence's dash goes."""

    step: int = 2
    #: Columns from a key to the ``-`` of its block sequence (0: ``key:\\n- item``).
    dash: int = 2


def style(docs: list[Document], within: Node | None = None, default: Style | None = None) -> Style:
    """The file's indentation (or the one ``within`` a section uses, where it shows; else ``default``)."""
    steps: list[int] = []
    dashes: list[int] = []
    for doc in docs:
        for node in walk(doc.node if within is None else within):
            if not isinstance(node, MappingNode) or node.flow_style:
                continue
            for key, value in node.value:
                if getattr(value, "flow_style", True) or doc.lines.line(value.start_mark.index) == doc.lines.line(
                    key.start_mark.index
                ):
                    continue
                column = int(value.start_mark.column) - int(key.start_mark.column)
                (steps if isinstance(value, MappingNode) else dashes).append(column)
        if within is not None:
            break
    fallback = default or Style()
    step = min((s for s in steps if s > 0), default=fallback.step)
    return Style(step=step, dash=dashes[0] if dashes else fallback.dash if default else step)
