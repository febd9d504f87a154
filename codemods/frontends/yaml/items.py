"""Where items go among their siblings: new keys next to the key they belong with, list items in and out.

A new item is anchored to a kept neighbour: before the next kept item when that one changed too (``gpus: 2``
becomes ``accelerator: gpu`` + ``devices: 2``), else after the previous kept one, else before the next one.
List values (``plugins:``) lose and gain items line by line (block) or with their commas (flow).
"""

from __future__ import annotations

from typing import Any

from ruamel.yaml.nodes import Node, SequenceNode

from codemods.frontends.yaml.flow import FlowPlan, Unsafe, flow_edits
from codemods.frontends.yaml.nodes import Entry
from codemods.frontends.yaml.render import flow, sequence_item
from codemods.frontends.yaml.text import Edit
from codemods.frontends.yaml.writer_view import WriterView
from codemods.plan.model import Plan, Value


def anchor_new(
    anchors: list[int | None], items: list[Any], changed: list[bool] | None = None
) -> dict[tuple[str, int], list[Any]]:
    """Group new items (``anchors[i] is None``) by where they go: before the next kept item when that one
    changed too (``gpus: 2`` -> ``accelerator: gpu`` + ``devices: 2``), else after the previous kept item,
    else before the next one; ``("orphan", 0)`` when there is no kept item at all."""
    groups: dict[tuple[str, int], list[Any]] = {}
    index = 0
    while index < len(anchors):
        if anchors[index] is not None:
            index += 1
            continue
        stop = index
        while stop + 1 < len(anchors) and anchors[stop + 1] is None:
            stop += 1
        following = anchors[stop + 1] if stop + 1 < len(anchors) else None
        preceding = anchors[index - 1] if index > 0 else None
        if following is not None and (preceding is None or (changed is not None and changed[stop + 1])):
            where = ("before", following)
        elif preceding is not None:
            where = ("after", preceding)
        else:
            where = ("orphan", 0)
        groups.setdefault(where, []).extend(items[index : stop + 1])
        index = stop + 1
    return groups


def sequence_edits(writer: WriterView, entry: Entry, value: Value, plan: Plan) -> list[Edit]:
    """Items removed from and added to the list value of ``entry`` (``plugins:``), block or flow."""
    seq = entry.value
    if not isinstance(seq, SequenceNode) or value.items is None or not seq.value:
        raise Unsafe(f"{entry.key} is not a list the rules can edit item by item")
    nodes: list[Node] = list(seq.value)
    kept = {id(item.node) for item in value.items if item.node is not None}
    if any(item.node is not None and all(item.node is not n for n in nodes) for item in value.items):
        raise Unsafe(f"an item of {entry.key} comes from elsewhere")
    keep = [id(node) in kept for node in nodes]
    index_of = {id(node): i for i, node in enumerate(nodes)}
    groups = anchor_new(
        [index_of[id(item.node)] if item.node is not None else None for item in value.items],
        [writer.data(item, plan) if item.node is None else None for item in value.items],
    )
    if seq.flow_style:
        spans = [(int(n.start_mark.index), writer.doc.end(n)) for n in nodes]
        fp = FlowPlan(spans, keep, empty_at=int(seq.end_mark.index) - 1)
        for (where, at), items in groups.items():
            texts = [flow(item) for item in items]
            if where == "orphan":
                fp.orphans.extend(texts)
            else:
                (fp.before if where == "before" else fp.after).setdefault(at, []).extend(texts)
        return flow_edits(fp, writer.lines)
    dash = writer.text[writer.lines.start(int(nodes[0].start_mark.index)) : int(nodes[0].start_mark.index)]
    dash = dash[: dash.rfind("-")] if "-" in dash else dash
    edits = []
    for node, stays in zip(nodes, keep, strict=True):
        if not stays:
            start = writer.lines.start(int(node.start_mark.index))
            if writer.text[start : int(node.start_mark.index)].strip() != "-":
                raise Unsafe(f"an item of {entry.key} does not start its own line")
            edits.append(writer.delete_lines(start, writer.doc.after(node)))
    for (where, at), items in groups.items():
        text = "".join(line + writer.nl for item in items for line in sequence_item(item, dash, writer.style))
        if where == "before":
            position = writer.lines.start(int(nodes[at].start_mark.index))
        elif where == "after":
            position = writer.doc.after(nodes[at])
        else:
            position = writer.doc.after(seq)
        edits.append(writer.insert(position, text))
    return edits
