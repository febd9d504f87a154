"""One Trainer section: from the plan the flag rules left to the text edits that produce it.

Each key of the plan is matched to the original text: a key that kept its value object is untouched or
renamed in place (only the key's characters change, so its value, quotes and comment stay); a key whose value
the rules replaced gets only its value's characters rewritten; a key the rules created is inserted as a new
line next to the key it belongs with, at the section's indentation; a value moved from inside another key
(a strategy out of ``plugins:``) is re-indented from its original lines. Removed keys lose their lines, and
any comment on them stays behind as a comment line.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

from codemods.frontends.yaml.flow import FlowPlan, Unsafe, flow_edits
from codemods.frontends.yaml.items import anchor_new, sequence_edits
from codemods.frontends.yaml.nodes import Document, Entry, Section, Style, walk
from codemods.frontends.yaml.render import Unrenderable, block, data, inline
from codemods.frontends.yaml.text import Edit, apply_edits, shift_lines
from codemods.frontends.yaml.todos import TodoPlacer
from codemods.frontends.yaml.writer_view import Slot
from codemods.plan.model import Plan, Value


@dataclass
class Written:
    """The edits of one section and what the TODO placement and the safety check need to know."""

    edits: list[Edit]
    slots: list[Slot]
    deleted: list[Entry]
    consumed: set[int]
    #: 1-based line of each TODO's key (in the original text).
    todo_lines: list[int] = field(default_factory=list)


class SectionWriter:
    def __init__(self, doc: Document, section: Section, style: Style, strings: list[Edit]) -> None:
        self.doc, self.section, self.style, self.strings = doc, section, style, strings
        self.text, self.lines = doc.text, doc.lines
        self.nl = self.lines.newline
        self.flow = bool(section.node.flow_style)
        first = section.entries[0] if section.entries else None
        if first is None or self.flow:
            self.pad = ""
        elif self.lines.first_on_line(first.start):
            self.pad = self.lines.indent(first.start)
        else:
            self.pad = " " * int(first.key_node.start_mark.column)
        self.consumed: set[int] = set()
        self.carried: list[tuple[int, int]] = []
        self.inserted: list[Edit] = []

    # --- matching the plan to the text ---------------------------------------------------------------------
    def match(
        self,
        plan: Plan,
        original: list[tuple[Entry, Value]],
        snapshot: dict[int, list[Value]],
        todos: list[tuple[str | None, str]],
    ) -> Written:
        """The section's edits; ``todos`` are (key or None, comment text) pairs to place."""
        by_value = {id(value): entry for entry, value in original}
        by_node = {id(entry.value): entry for entry, _ in original}
        inside: set[int] = set()
        for owner, _ in original:
            inside.update(id(node) for node in walk(owner.value) if node is not owner.value)
        claimed: set[str] = set()
        slots: list[Slot] = []
        for key, value in plan.items:
            entry = by_value.get(id(value)) or (by_node.get(id(value.node)) if value.node is not None else None)
            if entry is not None and entry.key not in claimed:
                claimed.add(entry.key)
                before = snapshot.get(id(value))
                changed = value.items is not None and (
                    before is None or [id(i) for i in before] != [id(i) for i in value.items]
                )
                slots.append(Slot(key, value, "keep" if key == entry.key else "rename", entry, changed))
            elif value.node is not None:
                if id(value.node) not in inside and entry is None:
                    raise Unsafe(f"the new value of {key} comes from outside the section")
                slots.append(Slot(key, value, "move"))
            else:
                slots.append(Slot(key, value, "new"))
        free = {entry.key: entry for entry, _ in original if entry.key not in claimed}
        for slot in slots:
            # set() in place (precision: 16 -> 16-mixed); a key dropped and created again gets a new line
            if slot.kind == "new" and slot.key in free and slot.key not in plan.successor:
                slot.kind, slot.entry = "replace", free.pop(slot.key)
        for slot in slots:
            if slot.kind == "move" and slot.value.node is not None:
                node = slot.value.node
                block = isinstance(node, MappingNode | SequenceNode) and not node.flow_style
                stop = self.lines.end(self.doc.end(node)) if block else self.doc.end(node)
                self.carried.append((int(node.start_mark.index), stop))
        deleted = [entry for entry, _ in original if entry.key in free]
        for slot in slots:
            if slot.kind in ("new", "move"):
                self._render_slot(slot, plan)
        edits: list[Edit] = []
        for slot in slots:
            edits.extend(self._slot_edits(slot, plan))
        placer = TodoPlacer(self, slots, edits)
        targets = [placer.place(key, comment) for key, comment in todos]
        self.inserted = self._insertions(slots, deleted)
        edits.extend(self.inserted)
        edits.extend(self._deletions(deleted))
        edits.extend(placer.edits)
        lines = [self.lines.line(target.at if isinstance(target, Slot) else target) + 1 for target in targets]
        return Written(edits, slots, deleted, self.consumed, lines)

    # --- in place ------------------------------------------------------------------------------------------
    def _slot_edits(self, slot: Slot, plan: Plan) -> list[Edit]:
        entry = slot.entry
        if entry is None:
            return []
        edits: list[Edit] = []
        if slot.kind == "rename":
            key = entry.key_node
            quote = key.style if key.style in ("'", '"') else ""
            edits.append(Edit(int(key.start_mark.index), int(key.end_mark.index), f"{quote}{slot.key}{quote}"))
        if slot.kind == "replace":
            edits.append(self._replace_value(entry, slot.value, plan))
        if slot.items_changed:
            edits.extend(sequence_edits(self, entry, slot.value, plan))
        return edits

    def _replace_value(self, entry: Entry, value: Value, plan: Plan) -> Edit:
        new = self.data(value, plan)
        node = entry.value
        colon = self.text.find(":", int(entry.key_node.end_mark.index))
        flow_here = self.flow or not isinstance(new, dict | list) or not new
        if flow_here:
            rendered = inline(new, self.flow)
            if isinstance(node, ScalarNode) and (node.value != "" or node.style):
                return Edit(int(node.start_mark.index), int(node.end_mark.index), rendered)
            return Edit(colon + 1, entry.end, " " + rendered)
        lines = block(entry.key, new, self.pad, self.style)
        return Edit(colon + 1, entry.end, self.nl + self.nl.join(lines[1:]))

    # --- new lines -----------------------------------------------------------------------------------------
    def data(self, value: Value, plan: Plan) -> Any:
        try:
            return data(value, plan.root, self._source)
        except Unrenderable as exc:
            raise Unsafe(f"{exc} cannot be written in YAML") from exc

    def _source(self, value: Value) -> str:
        node = value.node
        start, stop = int(node.start_mark.index), self.doc.end(node)
        if "\n" in self.text[start:stop] or (
            not isinstance(node, ScalarNode) and not getattr(node, "flow_style", False)
        ):
            raise Unrenderable("a multi-line value moved into a new place")
        return self._moved_text(start, stop)

    def _moved_text(self, start: int, stop: int) -> str:
        inner = [e for e in self.strings if start <= e.start and e.end <= stop]
        self.consumed.update(id(e) for e in inner)
        return apply_edits(self.text[start:stop], inner, base=start)

    def _render_slot(self, slot: Slot, plan: Plan) -> None:
        node = slot.value.node
        if slot.kind == "move" and isinstance(node, MappingNode | SequenceNode) and not node.flow_style:
            if self.flow:
                raise Unsafe(f"a block value cannot move into the flow mapping as {slot.key}")
            start = int(node.start_mark.index)
            stop = self.lines.end(self.doc.end(node))
            column = len(self.pad) + (self.style.step if isinstance(node, MappingNode) else self.style.dash)
            moved = shift_lines(self._moved_text(start, stop), column - int(node.start_mark.column))
            if moved is None:
                raise Unsafe(f"the lines of {slot.key} cannot be re-indented")
            slot.text = [f"{self.pad}{slot.key}:", " " * column + moved]
            return
        new = self.data(slot.value, plan)
        if self.flow:
            slot.text = [f"{slot.key}: {inline(new, True)}"]
        else:
            slot.text = block(slot.key, new, self.pad, self.style)

    def _insertions(self, slots: list[Slot], deleted: list[Entry]) -> list[Edit]:
        entries = self.section.entries
        groups = anchor_new(
            [slots.index(s) if s.entry is not None else None for s in slots],
            [s if s.entry is None else None for s in slots],
            changed=[s.entry is not None and (s.kind != "keep" or s.items_changed) for s in slots],
        )
        if self.flow:
            spans = [(e.start, e.end) for e in entries]
            index_of = {id(e): i for i, e in enumerate(entries)}
            end = int(self.section.node.end_mark.index) - 1
            fp = FlowPlan(spans, [e not in deleted for e in entries], empty_at=end)
            for (where, at), items in groups.items():
                texts = [item.text[0] for item in items]
                if where == "orphan":
                    fp.orphans.extend(texts)
                else:
                    anchor = slots[at].entry
                    assert anchor is not None
                    (fp.before if where == "before" else fp.after).setdefault(index_of[id(anchor)], []).extend(texts)
            return flow_edits(fp, self.lines, order=1)
        edits = []
        for (where, at), items in groups.items():
            anchor = slots[at].entry if where != "orphan" else None
            gap = self._gap(anchor, where == "after", deleted) if anchor is not None else None
            if gap is not None:
                position = gap
            elif anchor is not None and where == "before" and self.lines.first_on_line(anchor.start):
                position = self.lines.start(anchor.start)
            elif anchor is not None:
                position = self.doc.after(anchor.value, anchor.key_node)
            elif deleted and self.lines.first_on_line(deleted[0].start):
                position = self.lines.start(deleted[0].start)
            elif entries:
                position = self.doc.after(entries[-1].value, entries[-1].key_node)
            else:
                raise Unsafe("the section has no line to put new keys next to")
            for item in items:
                item.at = position
            edits.append(self.insert(position, "".join(line + self.nl for item in items for line in item.text)))
        return edits

    def _gap(self, anchor: Entry, after: bool, deleted: list[Entry]) -> int | None:
        """Where new keys next to ``anchor`` go when they take a dropped key's place (``gpus: 0``): after the line of
        the deleted entry right after ``anchor`` (or the first of those right before it, with only deleted entries
        between), where what stays of that line (its comment) is; None where there is none, it shares its line, or
        it is the text's last line (the keys then go after the anchor, as where nothing was dropped)."""
        entries = self.section.entries
        index = next(i for i, entry in enumerate(entries) if entry is anchor)
        gone = {id(entry) for entry in deleted}
        side = entries[index + 1 :] if after else reversed(entries[:index])
        run = list(itertools.takewhile(lambda entry: id(entry) in gone, side))
        if not run:
            return None
        found = run[0] if after else run[-1]
        following = self.lines.line(max(found.start, found.end - 1)) + 1
        if not self.lines.first_on_line(found.start) or following >= len(self.lines.starts):
            return None
        return self.lines.starts[following]

    def insert(self, position: int, text: str) -> Edit:
        if position == len(self.text) and not self.text.endswith("\n"):
            text = self.nl + text  # the file's missing last newline is restored at the end (configs.pipeline)
        return Edit(position, position, text, order=1)

    # --- removed keys --------------------------------------------------------------------------------------
    def _deletions(self, deleted: list[Entry]) -> list[Edit]:
        if self.flow:
            return []  # flow items are removed with their commas in _insertions (one FlowPlan)
        edits = []
        entries = self.section.entries
        for entry in deleted:
            if not self.lines.first_on_line(entry.start):
                # ``- gpus: 0`` first in a list item: the next key moves up behind the dash
                following = entries[entries.index(entry) + 1] if entry is not entries[-1] else None
                if following is None or following in deleted or not self.lines.first_on_line(following.start):
                    raise Unsafe(f"{entry.key} does not start its own line")
                comment = self.lines.comment(entry.start)
                if comment is not None and comment < following.start:
                    raise Unsafe(f"{entry.key} has a comment on its line")
                edits.append(Edit(entry.start, following.start, ""))
                continue
            edits.append(self.delete_lines(self.lines.start(entry.start), self.doc.after(entry.value, entry.key_node)))
        if edits and len(deleted) == len(entries) and not any(e.start == e.end for e in self.inserted):
            # every key goes: the section stays a mapping (``trainer:`` alone would read as null)
            first = edits[0]
            edits[0] = Edit(first.start, first.end, f"{self.pad}{{}}{self.nl}{first.new}", first.order)
        return edits

    def delete_lines(self, start: int, stop: int) -> Edit:
        """Remove whole lines; the comments on them stay (as comment lines), unless they moved with a value."""
        kept = []
        position = start
        while position < stop:
            comment = self.lines.comment(position)
            if comment is not None and comment < stop and not any(a <= comment < b for a, b in self.carried):
                if self.lines.first_on_line(comment):
                    kept.append(self.text[self.lines.start(comment) : self.lines.end(comment)])
                else:
                    kept.append(self.lines.indent(comment) + self.text[comment : self.lines.end(comment)].rstrip())
            position = self.lines.next_start(position)
        return Edit(start, stop, "".join(line + self.nl for line in kept))
