"""Run the flag rules over a plan read from Python, settle it, and report its notes where they belong.

A TODO about one argument goes right above that argument (``inline``); the others go above the statement.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.frontends.python.rebuild import final_key
from codemods.frontends.python.values import render
from codemods.plan.apply_rules import run_flag_rules
from codemods.plan.model import Plan, Value

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext


_NOTE_KEY = re.compile(r"([A-Za-z_]\w*)=")


def run_plan(
    ctx: FileContext,
    plan: Plan,
    anchor: cst.CSTNode,
    lines: dict[str, tuple[cst.CSTNode, bool]] | None = None,
    inline: dict[str, list[str]] | None = None,
    quote: str = '"',
) -> bool:
    """Run the enabled flag rules; report their notes on ``anchor``. True when the flags changed.

    ``lines``: the original keyword arguments, by keyword, and whether each begins a line of its own. A TODO
    about one of them (its message starts with ``key=``) goes right above that argument, inside the call: it
    is collected in ``inline`` (original key -> comment texts) and reported on the argument's line, instead of
    above the statement.
    """
    changed = settle_plan(ctx, plan, quote)
    report_notes(ctx, plan, anchor, lines, inline)
    return changed


def settle_plan(ctx: FileContext, plan: Plan, quote: str = '"') -> bool:
    """Run the enabled flag rules (and again over their result, :func:`_settle`); True when the flags changed.
    The notes stay in ``plan.notes`` (:func:`report_notes` reports them)."""
    steps = run_flag_rules
    # The values themselves, not their ids: a value a rule replaced is freed, and its id may be reused.
    before = list(plan.items)
    snapshot = [(v, list(v.items)) for _, v in plan.items if v.items is not None]
    steps(plan)
    if not plan.stopped and (_changed(before, snapshot, plan) or plan.notes):
        _settle(ctx, plan, steps, quote)
    return _changed(before, snapshot, plan)


def report_notes(
    ctx: FileContext,
    plan: Plan,
    anchor: cst.CSTNode,
    lines: dict[str, tuple[cst.CSTNode, bool]] | None = None,
    inline: dict[str, list[str]] | None = None,
) -> None:
    """Report the plan's notes on ``anchor`` (a TODO about one argument on that argument, see :func:`run_plan`)."""
    from codemods.model import todo_comment

    for note in plan.notes:
        match = _NOTE_KEY.match(note.message)
        home = None
        if note.kind == "todo" and lines and match:
            # above the first line of the call that the TODO names (gpus= may come before the accelerator= it
            # waits on)
            homes = [_home(plan, lines, key) for key in (match.group(1), *note.about)]
            order = list(lines)
            home = min((h for h in homes if h is not None), key=order.index, default=None)
        if home is not None and inline is not None:
            ctx.todo_here(note.rule, note.message, lines[home][0])  # type: ignore[index]
            text = todo_comment(note.message, note.rule)
            if text not in inline.setdefault(home, []):
                inline[home].append(text)
            continue
        # A TODO about one argument is reported on that argument's line (its comment goes above the statement).
        about = match.group(1) if note.kind == "todo" and lines and match else None
        where = lines[about][0] if lines and about in lines else anchor
        {"todo": ctx.todo, "report": ctx.report}.get(note.kind, ctx.fix)(note.rule, note.message, where)


def _home(plan: Plan, lines: dict[str, tuple[cst.CSTNode, bool]], key: str) -> str | None:
    """The original argument whose line a TODO about ``key`` goes above: ``key`` itself, or the first original
    that ``key`` took the place of (``accelerator=b`` from ``distributed_backend=b``); None when that argument
    does not begin a line of its own (the TODO then goes above the statement)."""
    present = {name for name, _ in plan.items}
    if key in lines:
        home: str | None = key
    else:
        home = next((k for k in lines if final_key(plan.successor, k, present, set(lines)) == key), None)
    return home if home is not None and lines[home][1] else None


def _changed(before: list[tuple[str, Value]], snapshot: list[tuple[Value, list[Value]]], plan: Plan) -> bool:
    after = plan.items
    same = len(before) == len(after) and all(k == j and v is w for (k, v), (j, w) in zip(before, after, strict=False))
    current = {id(v) for _, v in after}
    return not same or any(id(v) in current and items != v.items for v, items in snapshot)


def _settle(ctx: FileContext, plan: Plan, steps: Any, quote: str, rounds: int = 3) -> None:
    """Run the rules again over their own result, as a second run of migrate-trainer would, until nothing
    more happens: then a second run finds nothing to do (no rewrite, no new TODO about the rewritten flags).

    The values are quoted as they will be written (a TODO quoting ``strategy=...`` quotes the rewritten
    value); a TODO the later pass words differently replaces the earlier one of its rule.
    """
    seen = {(note.rule, note.message) for note in plan.notes}
    for _ in range(rounds):
        items = [
            (key, replace(value, source=ctx.code(render(ctx, plan, value, quote)).strip())) for key, value in plan.items
        ]
        again = Plan(
            items,
            plan.target,
            plan.root,
            plan.enabled,
            opaque_rest=plan.opaque_rest,
            origin={key: "explicit" for key, _ in plan.items},
            interactive=plan.interactive,
            untuned=plan.untuned,
        )
        again.test_suite = plan.test_suite
        before = list(again.items)
        snapshot = [(v, list(v.items)) for _, v in again.items if v.items is not None]
        steps(again)
        fresh = [note for note in again.notes if (note.rule, note.message) not in seen]
        moved = _changed(before, snapshot, again)
        if not fresh and not moved:
            return
        for note in fresh:
            earlier = next(
                (i for i, old in enumerate(plan.notes) if old.kind == note.kind == "todo" and old.rule == note.rule),
                None,
            )
            if earlier is not None and not any(n.rule == note.rule and n is not note for n in fresh):
                plan.notes[earlier] = note  # the same TODO, quoting the code as it now reads
            else:
                plan.notes.append(note)
        seen.update((note.rule, note.message) for note in fresh)
        if moved:
            plan.items = [(key, value) for key, value in again.items]
            for key, successor in again.successor.items():
                plan.successor.setdefault(key, successor)
        plan.stopped = plan.stopped or again.stopped
        if not moved:
            return
