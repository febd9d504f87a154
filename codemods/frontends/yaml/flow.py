"""Edits inside a flow collection (``{gpus: 2, accelerator: ddp}``, ``[ddp, x]``): items and their commas.

An item is its text span. Removing a run of items removes the comma that separated it from a kept
neighbour; a new item is written next to a kept one with the same ``, `` separator.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from codemods.frontends.yaml.text import Edit, Lines


class Unsafe(Exception):
    """The edit cannot be located safely: the section is left as it is, with a TODO finding."""


@dataclass
class FlowPlan:
    """Original item spans, which of them stay, and new item texts anchored to a kept item."""

    spans: list[tuple[int, int]]
    keep: list[bool]
    #: index of a kept item -> texts to write before it / after it.
    before: dict[int, list[str]] = field(default_factory=dict)
    after: dict[int, list[str]] = field(default_factory=dict)
    #: Texts with no kept neighbour (every item removed, or none to begin with), written at ``empty_at``.
    orphans: list[str] = field(default_factory=list)
    empty_at: int = 0


def flow_edits(plan: FlowPlan, lines: Lines, order: int = 0) -> list[Edit]:
    spans, keep = plan.spans, plan.keep
    edits: list[Edit] = []
    index = 0
    while index < len(spans):
        if keep[index]:
            index += 1
            continue
        stop = index
        while stop + 1 < len(spans) and not keep[stop + 1]:
            stop += 1
        if stop + 1 < len(spans):
            start, end = spans[index][0], spans[stop + 1][0]
        elif index > 0:
            start, end = spans[index - 1][1], spans[stop][1]
        else:
            start, end = spans[0][0], spans[-1][1]
        for position in _line_starts(lines, start, end):
            comment = lines.comment(position)
            if comment is not None and comment < end:
                raise Unsafe("a comment sits among the flow items to remove")
        edits.append(Edit(start, end, "", order))
        index = stop + 1
    for at, texts in sorted(plan.before.items()):
        edits.append(Edit(spans[at][0], spans[at][0], "".join(f"{t}, " for t in texts), order))
    for at, texts in sorted(plan.after.items()):
        edits.append(Edit(spans[at][1], spans[at][1], "".join(f", {t}" for t in texts), order))
    if plan.orphans:
        at = spans[0][0] if spans else plan.empty_at
        edits.append(Edit(at, at, ", ".join(plan.orphans), order))
    return edits


def _line_starts(lines: Lines, start: int, end: int) -> list[int]:
    out = [start]
    position = lines.next_start(start)
    while position < end:
        out.append(position)
        position = lines.next_start(position)
    return out
