"""What the item and TODO edits read of a section's writer: the types ``section``, ``items`` and ``todos`` share.

``section.SectionWriter`` plans a section's edits and calls ``items`` and ``todos``, which read it back through
:class:`WriterView`: so neither imports the module that imports it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from codemods.frontends.yaml.nodes import Document, Entry, Section, Style
from codemods.frontends.yaml.text import Edit, Lines
from codemods.plan.model import Plan, Value

Kind = Literal["keep", "rename", "replace", "move", "new"]


@dataclass
class Slot:
    key: str
    value: Value
    kind: Kind
    entry: Entry | None = None
    items_changed: bool = False
    #: Inserted slots: the text lines (block) or the ``key: value`` text (flow), and where they go.
    text: list[str] = field(default_factory=list)
    at: int = -1


class WriterView(Protocol):
    """What :mod:`codemods.frontends.yaml.items` and :mod:`codemods.frontends.yaml.todos` use of a
    :class:`~codemods.frontends.yaml.section.SectionWriter`."""

    doc: Document
    section: Section
    style: Style
    text: str
    lines: Lines
    nl: str
    flow: bool
    pad: str

    def data(self, value: Value, plan: Plan) -> Any: ...

    def insert(self, position: int, text: str) -> Edit: ...

    def delete_lines(self, start: int, stop: int) -> Edit: ...
