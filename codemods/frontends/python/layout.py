"""Lay out a rebuilt argument list (or dict, or list) so that its comments survive, each exactly once.

In libcst the comments of a multi-line call live in the commas: the comma after an argument holds that
argument's end-of-line comment (``first_line``) and the comment lines above the next argument
(``empty_lines``). Rebuilding a call by handing every new argument some template comma therefore copied one
argument's comments onto every line, and dropped those of replaced arguments. Here each element of the new
list is a :class:`Slot` that carries its own comments (those of the original element it stands for); the
commas are then rebuilt from the slots. Two neighbours that were neighbours before keep their original comma,
so untouched stretches keep their exact formatting.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import libcst as cst


@dataclass
class Slot:
    """One element of the new list: its node, the original element it is (if reused as is), its comments."""

    node: Any
    #: Index of the original element this node is, unchanged; None for a new node.
    origin: int | None
    #: Where it stands in the original order (the first original it replaces), for placing orphaned comments.
    anchor: float
    lead: list[cst.EmptyLine] = field(default_factory=list)
    trail: cst.TrailingWhitespace | None = None
    #: ``lead`` and ``trail`` are exactly the original element's own.
    own: bool = False
    #: Indices of the original elements it stands for.
    sources: list[int] = field(default_factory=list)

    def add_lines(self, texts: Sequence[str], layout: Layout) -> None:
        """Comment lines right above the element, each unless it is there already."""
        present = {line.comment.value for line in self.lead if line.comment is not None}
        missing = [text for text in texts if text not in present]
        if missing:
            self.lead = [*self.lead, *(layout.comment_line(text) for text in missing)]
            self.own = False


def _after(element: Any) -> cst.ParenthesizedWhitespace | None:
    comma = getattr(element, "comma", None)
    after = comma.whitespace_after if isinstance(comma, cst.Comma) else None
    return after if isinstance(after, cst.ParenthesizedWhitespace) else None


def comments(originals: Sequence[Any]) -> tuple[list[list[cst.EmptyLine]], list[cst.TrailingWhitespace | None]]:
    """Per original element: the comment lines above it (none for the first: they belong to the opening
    bracket) and its end-of-line comment."""
    lead: list[list[cst.EmptyLine]] = [[] for _ in originals]
    trail: list[cst.TrailingWhitespace | None] = [None for _ in originals]
    for index, element in enumerate(originals):
        after = _after(element)
        if after is None:
            continue
        if after.first_line.comment is not None:
            trail[index] = after.first_line
        if index + 1 < len(originals):
            lead[index + 1] = list(after.empty_lines)
    return lead, trail


class Layout:
    """The shape of the original list: how a line break between elements looks, and whether there is one."""

    def __init__(self, originals: Sequence[Any], opening: Any) -> None:
        inner = [_after(element) for element in originals[:-1]]
        broken = [after for after in inner if after is not None]
        if broken:
            self.template: cst.ParenthesizedWhitespace | None = broken[0]
        else:
            self.template = opening if isinstance(opening, cst.ParenthesizedWhitespace) else None
        #: One element per line (every break between two elements is a line break).
        self.one_per_line = self.template is not None and (
            (bool(inner) and len(broken) == len(inner))
            or (not inner and isinstance(opening, cst.ParenthesizedWhitespace))
        )

    def line_break(
        self, trail: cst.TrailingWhitespace | None, lead: list[cst.EmptyLine]
    ) -> cst.ParenthesizedWhitespace:
        template = self.template
        indent = template.indent if template is not None else True
        last_line = template.last_line if template is not None else cst.SimpleWhitespace("    ")
        return cst.ParenthesizedWhitespace(
            first_line=trail or cst.TrailingWhitespace(),
            empty_lines=lead,
            indent=indent,
            last_line=last_line,
        )

    def comma(self, trail: cst.TrailingWhitespace | None, lead: list[cst.EmptyLine]) -> cst.Comma:
        if trail is None and not lead and not self.one_per_line:
            return cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
        return cst.Comma(whitespace_after=self.line_break(trail, lead))

    def between(self, originals: Sequence[Any], opening: Any, reach: int, following: Sequence[int]) -> cst.Comma:
        """The comma between two elements of a list that has some elements per line and several on others: a line
        break where the original had one between what they stand for (``reach``: the last original element so far;
        ``following``: those the next element stands for), else ", ": the lines stay as they were. A new element
        that stands for none goes with the one before it: on a line of its own where that one had its line."""
        if not following:
            alone = 0 <= reach < len(originals) - 1 and _after(originals[reach]) is not None
            before = _after(originals[reach - 1]) if reach > 0 else opening
            broke = alone and isinstance(before, cst.ParenthesizedWhitespace)
        else:
            # the last original's comma ends the list: its break is the closing bracket's, not one between elements
            inner = range(reach, min(min(following), len(originals) - 1))
            broke = reach >= 0 and any(_after(originals[k]) is not None for k in inner)
        return cst.Comma(whitespace_after=self.line_break(None, [])) if broke else self.comma(None, [])

    def comment_line(self, text: str) -> cst.EmptyLine:
        """A comment on a line of its own, indented like the elements."""
        template = self.template
        whitespace = template.last_line if template is not None else cst.SimpleWhitespace("")
        return cst.EmptyLine(indent=True, whitespace=whitespace, comment=cst.Comment(text))

    def own_line(self, trail: cst.TrailingWhitespace | None) -> list[cst.EmptyLine]:
        """An end-of-line comment moved onto a line of its own (its element went away or was merged). An empty
        ``#`` says nothing and goes with its element: a line of its own would hold just the mark."""
        if trail is None or trail.comment is None or _empty(trail):
            return []
        template = self.template
        whitespace = template.last_line if template is not None else cst.SimpleWhitespace("")
        return [cst.EmptyLine(indent=True, whitespace=whitespace, comment=trail.comment)]


def starts_line(originals: Sequence[Any], opening: Any, index: int) -> bool:
    """Whether the original element ``index`` begins a line of its own (so a comment can go right above it)."""
    if index == 0:
        return isinstance(opening, cst.ParenthesizedWhitespace)
    return _after(originals[index - 1]) is not None


def insert_lines(originals: Sequence[Any], opening: Any, index: int, texts: Sequence[str]) -> tuple[list[Any], Any]:
    """``originals`` (unchanged otherwise) with comment lines right above element ``index``, which must begin
    a line (:func:`starts_line`); texts already there are not added again."""
    elements = list(originals)
    if index == 0:
        holder = opening
    else:
        comma = elements[index - 1].comma
        holder = comma.whitespace_after
    present = {line.comment.value for line in holder.empty_lines if line.comment is not None}
    missing = [text for text in texts if text not in present]
    if not missing:
        return elements, opening
    lines = [
        cst.EmptyLine(indent=holder.indent, whitespace=holder.last_line, comment=cst.Comment(text)) for text in missing
    ]
    holder = holder.with_changes(empty_lines=[*holder.empty_lines, *lines])
    if index == 0:
        return elements, holder
    previous = elements[index - 1]
    elements[index - 1] = previous.with_changes(comma=previous.comma.with_changes(whitespace_after=holder))
    return elements, opening


def orphaned(layout: Layout, lead: list[cst.EmptyLine], trail: cst.TrailingWhitespace | None) -> list[cst.EmptyLine]:
    return [*lead, *layout.own_line(trail)]


def adopt(slots: list[Slot], orphans: list[tuple[int, list[cst.EmptyLine]]]) -> list[cst.EmptyLine]:
    """Give each dropped element's comments to the slot after it (in the original order); the rest is returned
    (it goes before the closing bracket)."""
    tail: list[cst.EmptyLine] = []
    for index, lines in orphans:
        if not lines:
            continue
        later = [slot for slot in slots if slot.anchor > index]
        if later:
            heir = min(later, key=lambda slot: slot.anchor)
            heir.lead = [*lines, *heir.lead]
            heir.own = False
        else:
            tail.extend(lines)
    return tail


def assemble(
    originals: Sequence[Any], slots: Sequence[Slot], opening: Any, layout: Layout, tail: list[cst.EmptyLine]
) -> tuple[list[Any], Any]:
    """The new elements with their commas, and the new opening whitespace (after ``(``/``[``/``{``)."""
    if not slots:  # every element went away: their comments stay, on lines of their own
        kept = list(opening.empty_lines) if isinstance(opening, cst.ParenthesizedWhitespace) else []
        if not kept and not tail:
            return [], cst.SimpleWhitespace("")
        first_line = opening.first_line if isinstance(opening, cst.ParenthesizedWhitespace) else None
        return [], cst.ParenthesizedWhitespace(
            first_line=first_line or cst.TrailingWhitespace(),
            empty_lines=[*kept, *tail],
            indent=True,
            last_line=cst.SimpleWhitespace(""),
        )
    last = originals[-1] if originals else None
    # The last element ends the way the original list ended (trailing comma or not, the line break before the
    # closing bracket), with its own end-of-line comment and the orphaned comment lines before the bracket.
    end: Any = getattr(last, "comma", cst.MaybeSentinel.DEFAULT)
    after = _after(last)
    final = slots[-1]
    if after is not None:
        if len(originals) - 1 not in _stands_for(final) and _empty(after.first_line):
            # the last argument went, and its comment was a bare "#": it goes with it (see Layout.own_line)
            end = end.with_changes(whitespace_after=after.with_changes(first_line=cst.TrailingWhitespace()))
        if final.trail is not None or tail or not final.own:
            first_line = final.trail or cst.TrailingWhitespace()
            end = end.with_changes(
                whitespace_after=after.with_changes(first_line=first_line, empty_lines=[*tail, *after.empty_lines])
            )
    elif final.trail is not None or tail:
        final.lead = [*final.lead, *tail, *layout.own_line(final.trail)]  # nothing to hang them on: above it
        final.own = False
    out: list[Any] = []
    reach = -1  # the last original element the slots so far stand for
    for position, slot in enumerate(slots):
        node = slot.node
        reach = max([reach, *_stands_for(slot)])
        if position + 1 == len(slots):
            if hasattr(node, "whitespace_after_arg") and last is not None:
                node = node.with_changes(whitespace_after_arg=last.whitespace_after_arg)
            out.append(node.with_changes(comma=end))
            break
        following = slots[position + 1]
        adjacent = slot.origin is not None and following.origin == slot.origin + 1
        if adjacent and slot.own and following.own:
            comma = originals[slot.origin].comma  # type: ignore[index]
        elif layout.one_per_line or slot.trail is not None or following.lead:
            comma = layout.comma(slot.trail, following.lead)
        else:
            comma = layout.between(originals, opening, reach, _stands_for(following))
        if hasattr(node, "whitespace_after_arg") and slot.origin == len(originals) - 1:
            node = node.with_changes(whitespace_after_arg=cst.SimpleWhitespace(""))
        out.append(node.with_changes(comma=comma))
    if slots[0].lead:
        if isinstance(opening, cst.ParenthesizedWhitespace):
            opening = opening.with_changes(empty_lines=[*opening.empty_lines, *slots[0].lead])
        else:
            opening = layout.line_break(None, list(slots[0].lead))
    return out, opening


def _empty(line: cst.TrailingWhitespace) -> bool:
    return line.comment is not None and line.comment.value.strip() == "#"


def _stands_for(slot: Slot) -> list[int]:
    return [slot.origin] if slot.origin is not None else list(slot.sources)


def append_argument(args: list[cst.Arg], opening: cst.BaseParenthesizableWhitespace, new: cst.Arg) -> list[cst.Arg]:
    """``new`` after ``args`` in the call's own layout: on a line of its own where the arguments are, else after
    ", ". A comment after the last argument stays with it."""
    if not args:
        return [new]
    last = args[-1]
    breaks = [a.comma.whitespace_after for a in args[:-1] if isinstance(a.comma, cst.Comma)]
    before = next((b for b in breaks if isinstance(b, cst.ParenthesizedWhitespace)), opening)
    step = before if isinstance(before, cst.ParenthesizedWhitespace) else None
    step = step.with_changes(first_line=cst.TrailingWhitespace()) if step is not None else None
    space = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    if not isinstance(last.comma, cst.Comma):
        return [*args[:-1], last.with_changes(comma=cst.Comma(whitespace_after=step) if step else space), new]
    closing = last.comma.whitespace_after
    if not isinstance(closing, cst.ParenthesizedWhitespace):
        return [*args[:-1], last.with_changes(comma=space), new.with_changes(comma=last.comma)]
    ahead = closing if step is None else closing.with_changes(indent=step.indent, last_line=step.last_line)
    own_line = last.comma.with_changes(whitespace_after=ahead.with_changes(empty_lines=[]))
    tail = last.comma.with_changes(whitespace_after=closing.with_changes(first_line=cst.TrailingWhitespace()))
    return [*args[:-1], last.with_changes(comma=own_line), new.with_changes(comma=tail)]
