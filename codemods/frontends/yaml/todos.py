"""Where a ``# TODO(migrate-trainer): ...`` comment goes in a YAML section: on its key's line.

The comment trails the key's line when that line has no comment yet (and the value ends there, or is a block
that starts below it); otherwise it is a full-line comment directly above the key, at the key's indentation.
A TODO about a key the rules created trails that new line. Without a key, it goes on the line of the key
that holds the section (``trainer:``), or of the section's first key.
"""

from __future__ import annotations

from typing import Any

from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

from codemods.frontends.yaml.nodes import Entry
from codemods.frontends.yaml.text import Edit
from codemods.frontends.yaml.writer_view import Slot, WriterView


class TodoPlacer:
    def __init__(self, writer: WriterView, slots: list[Slot], edits: list[Edit]) -> None:
        self.writer, self.slots, self.busy = writer, slots, edits
        self.edits: list[Edit] = []
        #: Lines (by offset of their start) that got a trailing TODO already.
        self.trailing: set[int] = set()

    def place(self, key: str | None, comment: str) -> Any:
        """Schedule ``comment``; returns the slot (a new line) or the offset of the line it is about."""
        writer = self.writer
        slot = next((s for s in self.slots if s.key == key), None) if key is not None else None
        if slot is not None and slot.entry is None and slot.text and not writer.flow:
            if id(slot) in self.trailing:
                slot.text.insert(0, writer.pad + comment)
            else:
                slot.text[0] += "  " + comment
                self.trailing.add(id(slot))
            return slot
        entry = slot.entry if slot is not None else None
        if entry is not None:
            return self._on_line(entry.start, entry.value, entry.end, comment, writer.pad if not writer.flow else None)
        section = writer.section
        owner = section.owner
        if owner is not None:
            return self._on_line(int(owner.start_mark.index), section.node, writer.doc.end(section.node), comment, None)
        first: Entry | None = section.entries[0] if section.entries else None
        if first is None:
            start = int(section.node.start_mark.index)
            return self._on_line(start, section.node, writer.doc.end(section.node), comment, None)
        return self._on_line(first.start, first.value, first.end, comment, writer.pad or None)

    def _on_line(self, start: int, value: Any, end: int, comment: str, pad: str | None) -> int:
        lines = self.writer.lines
        line_start = lines.start(start)
        same_line = lines.line(end) == lines.line(start)
        opens_block = (isinstance(value, MappingNode | SequenceNode) and not value.flow_style) or (
            isinstance(value, ScalarNode) and value.style in ("|", ">")
        )
        position = lines.content_end(start)
        free = lines.comment(line_start) is None and line_start not in self.trailing
        if free and (same_line or opens_block) and not any(e.start < position < e.end for e in self.busy):
            self.trailing.add(line_start)
            self.edits.append(Edit(position, position, "  " + comment, order=2))
        else:
            indent = pad if pad is not None and lines.first_on_line(start) else lines.indent(start)
            self.edits.append(Edit(line_start, line_start, indent + comment + lines.newline, order=2))
        return start
