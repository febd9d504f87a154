"""Rebuild a call's arguments (or a dict's elements) from a settled plan, reusing the untouched ones as they were.

The plan says which flags there are and what each became (``successor``); :func:`relayout` lays them out with
``codemods.frontends.python.layout``, so that formatting and comments survive, each comment exactly once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.frontends.python.values import _EQUAL, _list_comments, _quote, render
from codemods.plan.model import Plan

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext


def rebuild_args(
    ctx: FileContext, plan: Plan, updated: cst.Call, inline: dict[str, list[str]] | None = None
) -> cst.Call:
    """The call with the plan's flags; untouched arguments keep their formatting, every comment stays once.
    ``inline``: TODO comments to put right above the argument (of that original keyword) they concern."""
    originals = list(updated.args)
    equal = next((a.equal for a in originals if a.keyword is not None), _EQUAL)

    def new(key: str, rendered: cst.BaseExpression, old: Any) -> cst.Arg:
        return cst.Arg(rendered, keyword=cst.Name(key), equal=old.equal if old is not None else equal)

    keys = [a.keyword.value if a.keyword is not None else None for a in originals]
    stars = [bool(a.star) for a in originals]
    opening = updated.whitespace_before_args
    args, opening = relayout(ctx, plan, originals, keys, stars, opening, new, _quote(updated), inline or {})
    return updated.with_changes(args=args, whitespace_before_args=opening)


def relayout(
    ctx: FileContext,
    plan: Plan,
    originals: list[Any],
    keys: list[str | None],
    stars: list[bool],
    opening: Any,
    new: Any,
    quote: str,
    inline: dict[str, list[str]] | None = None,
) -> tuple[list[Any], Any]:
    """The plan's items as elements (``Arg``/``DictElement``) laid out by ``codemods.frontends.python.layout``: an
    original element whose value did not change is reused, a new one inherits the comments of the originals it
    replaces (``Plan.successor``), and the comments of the dropped ones go to the element after them."""
    from codemods.frontends.python import layout as pylayout

    layout = pylayout.Layout(originals, opening)
    lead, trail = pylayout.comments(originals)
    index = {key: i for i, key in enumerate(keys) if key is not None}
    present = {key for key, _ in plan.items}
    final = {key: final_key(plan.successor, key, present, set(index)) for key in index}
    slots: list[pylayout.Slot] = []

    def own(i: int) -> pylayout.Slot:
        return pylayout.Slot(originals[i], i, float(i), list(lead[i]), trail[i], own=True, sources=[i])

    slots.extend(own(i) for i, key in enumerate(keys) if key is None and not stars[i])
    used: set[int] = set()
    listed = _list_comments(originals, layout)
    moved = frozenset(id(v.node) for _, v in plan.items if v.node is not None and id(v.node) in listed)
    for key, value in plan.items:
        rendered = render(ctx, plan, value, quote, moved)
        sources = sorted(i for k, i in index.items() if final[k] == key)
        at = index.get(key)
        if at is not None and at in sources and originals[at].value is rendered:
            slot = own(at)
            sources = [at, *(i for i in sources if i != at)]
        else:
            anchor = float(sources[0]) if sources else (slots[-1].anchor + 0.001 if slots else -1.0)
            slot = pylayout.Slot(new(key, rendered, originals[at] if at is not None else None), None, anchor)
            if sources:
                slot.lead, slot.trail = list(lead[sources[0]]), trail[sources[0]]
        for extra in sources[1:]:
            slot.lead = [*slot.lead, *pylayout.orphaned(layout, lead[extra], trail[extra])]
            slot.own = False
        if id(rendered) in moved:  # ``strategy=DDPPlugin()`` out of ``plugins=[DDPPlugin(),  # why]``
            item_lead, item_trail = listed[id(rendered)]
            slot.lead = [*slot.lead, *(_reindent(line, layout) for line in item_lead)]
            if slot.trail is None:
                slot.trail = item_trail
            else:
                slot.lead = [*slot.lead, *layout.own_line(item_trail)]
            slot.own = False
        used.update(sources)
        slot.sources = sources
        slots.append(slot)
    # a ``**mapping`` (or ``*args``) keeps its place among the keywords: ``f(a=1, **d, b=2)`` stays so, and in a
    # dict display the order decides which value wins (``{**base, "gpus": 1}``)
    for i in (i for i in range(len(originals)) if stars[i]):
        at = next((n for n, slot in enumerate(slots) if slot.anchor > i), len(slots))
        slots.insert(at, own(i))
    orphans = [
        (i, pylayout.orphaned(layout, lead[i], trail[i]))
        for i, key in enumerate(keys)
        if key is not None and i not in used
    ]
    for key, texts in (inline or {}).items():
        at = index.get(key)
        heir = next((slot for slot in slots if at in slot.sources), None)
        if heir is not None:
            heir.add_lines(texts, layout)
        elif at is not None:  # the argument went away: the TODO goes above whatever follows it
            orphans.append((at, [layout.comment_line(text) for text in texts]))
    tail = pylayout.adopt(slots, orphans)
    return pylayout.assemble(originals, slots, opening, layout, tail)


def _reindent(line: cst.EmptyLine, layout: Any) -> cst.EmptyLine:
    """A comment line from inside a nested list, at the indentation of the call's arguments."""
    template = layout.template
    return line.with_changes(whitespace=template.last_line) if template is not None else line


def final_key(successor: dict[str, str | None], key: str, present: set[str], originals: set[str]) -> str | None:
    """The key of the plan that stands where the original ``key`` stood, None when it went away.

    ``successor`` is followed through keys the rules created, and only forward in the order the rules wrote
    it: an original key's own entry is about that original argument, and an older entry about a key name that
    was reused later is about the older key (``distributed_backend`` -> ``accelerator`` -> ``strategy``, then
    ``gpus`` -> a new ``accelerator``).
    """
    order = {name: position for position, name in enumerate(successor)}
    if key not in successor:
        return key if key in present else None
    current, step = successor[key], order[key]
    while current is not None and current not in originals and order.get(current, -1) > step:
        step = order[current]
        current = successor[current]
    return current if current in present else None
