"""Statements that store a Trainer flag into a dict (``d["gpus"] = 2``): each rewritten as the flag rules planned it.

A store whose key the plan renames gets the new key; one it drops is removed (a block it empties gets ``pass``);
a store that would write the key another store writes, with another value, stays as it is with a TODO.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.frontends.python.dict_uses import _REMOVED, _dict_facts, _DictFacts, _hold, _Use
from codemods.frontends.python.flag_plans import report_notes, settle_plan
from codemods.frontends.python.stores import ast_value, key_follows, store_fate
from codemods.frontends.python.values import _literal_node, literal, read, render
from codemods.plan.model import UNKNOWN, Plan
from legacy_api.renames import PL

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext


def _store(node: cst.SimpleStatementLine, names: frozenset[str]) -> tuple[cst.Assign, cst.Subscript, str] | None:
    """``d["key"] = value`` where ``d`` is one of ``names``: the assignment, its target and the key."""
    if len(node.body) != 1 or not isinstance(node.body[0], cst.Assign):
        return None
    assign = node.body[0]
    target = assign.targets[0].target if len(assign.targets) == 1 else None
    if not (
        isinstance(target, cst.Subscript)
        and isinstance(target.value, cst.Name)
        and target.value.value in names
        and len(target.slice) == 1
        and isinstance(target.slice[0].slice, cst.Index)
        and isinstance(target.slice[0].slice.value, cst.SimpleString)
    ):
        return None
    return assign, target, str(target.slice[0].slice.value.evaluated_value)


def _held(ctx: FileContext, facts: _DictFacts, key: str) -> bool:
    """Whether the stores of ``key`` stay as they are for the other uses of the key (:func:`leave_statement`)."""
    return bool(facts.others(key)) and key_follows(ctx, facts, key) is None


def _collisions(
    ctx: FileContext, facts: _DictFacts, key: str, line: int, written: list[tuple[str, Any]]
) -> list[tuple[_Use, str, str, bool]]:
    """Other stores in the scope (of another key) that write a key this store now writes: (store, its key, the
    key both write, whether both write the same literal)."""
    mine = dict(written)
    found = []
    for other_key, uses in facts.uses.items():
        if other_key == key:
            continue
        for other in uses:
            if other.value is None or other.line == line:
                continue
            held = _held(ctx, facts, other_key)
            fate = store_fate(ctx, facts, other_key, other)
            if held:  # it stays as it is, and a migration of it would write what its TODO says
                fate = [*fate, (other_key, ast_value(other.value).lit)]
            for new_key, lit in fate:
                if new_key in mine:
                    same = lit is not UNKNOWN and mine[new_key] is not UNKNOWN and lit == mine[new_key]
                    found.append((other, other_key, new_key, same and not held))
    return found


#: How a note about a flag the plan removed begins (``removed gpus=0: it chose no accelerator``).
def leave_statement(ctx: FileContext, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine) -> Any:
    """``params["tpu_cores"] = 8`` where ``params`` feeds a Trainer: one store may become two, or none.

    A key is migrated with every use of it in the scope, or not at all. Its reads, ``del``, ``in`` tests,
    ``.get`` and ``.pop`` are renamed with it where that is exact (``stores.key_follows``); otherwise a store whose key
    the scope also uses that way, that would write a key the scope already uses, or that would write the key
    another store of the scope writes with another value stays as it is, with one TODO (a store identical to
    the one right above it once both are migrated is dropped). A store that goes away is removed only where
    that is exact (``params`` is a literal of this scope without that key, used nowhere else; its comments go
    to the next statement): otherwise it stays, with a TODO, and no fix is reported for it.
    """
    if not ctx.trainer_dicts:
        return updated
    found = _store(original, ctx.trainer_dicts)
    if found is None:
        return updated
    assign, target, key = found
    new_assign = updated.body[0]
    assert isinstance(new_assign, cst.Assign)
    items = [(key, read(ctx, assign.value, new_assign.value))]
    plan = Plan(items, ctx.target, PL, ctx.enabled, opaque_rest=True, origin={key: "explicit"}, untuned=ctx.untuned)
    quote = target.slice[0].slice.value.quote[-1]  # type: ignore[attr-defined]
    if not settle_plan(ctx, plan, quote):
        report_notes(ctx, plan, original)
        return updated
    name = target.value.value  # type: ignore[attr-defined]
    facts = _dict_facts(ctx, name)
    line = ctx.anchors[-1][1] if ctx.anchors else 0
    rule = next((note.rule for note in plan.notes if note.kind == "fix"), plan.notes[0].rule if plan.notes else "")
    here = f"{key}={items[0][1].text}"
    others = facts.others(key)
    follow = key_follows(ctx, facts, key) if others else None
    if follow is not None and [k for k, _ in plan.items] != [follow[0]]:
        follow = None
    if others and follow is None:
        _hold(
            ctx,
            plan,
            original,
            rule,
            f"{here} is left as it is: {', '.join(others)} {'uses' if len(others) == 1 else 'use'} the same key of "
            f"{name}; migrate them together",
        )
        return updated
    written = [(k, v.lit if v.node is None else literal(v.node)) for k, v in plan.items]
    taken = [use for k, _ in written if k != key for use in facts.others(k)]
    if taken:
        new_keys = ", ".join(f"{name}[{quote}{k}{quote}]" for k, _ in written if k != key)
        _hold(
            ctx,
            plan,
            original,
            rule,
            f"{here} is left as it is: it would write {new_keys}, which {', '.join(taken)} "
            f"{'uses' if len(taken) == 1 else 'use'} already; migrate them together",
        )
        return updated
    collisions = _collisions(ctx, facts, key, line, written)
    differ = [c for c in collisions if not c[3]]
    if differ:
        _hold(ctx, plan, original, rule, _collision_message(ctx, here, name, key, quote, facts, differ[0]))
        return updated
    if not plan.items:
        if _removable(ctx, facts, key):
            report_notes(ctx, plan, original)
            marker = cst.Pass()
            ctx.removed_stores[id(marker)] = marker
            return updated.with_changes(body=[marker])
        _hold(ctx, plan, original, rule, _not_removed(here, name, key, facts, plan))
        return updated
    in_module = not ctx.scopes or ctx.scopes[-1] is ctx.analysis.module  # a chunk's body: no block to drop it from
    mine = None if in_module else next((use.slot for use in facts.stores(key) if use.line == line), None)
    for other, other_key, new_key, _ in collisions:
        above = mine is not None and other.slot == (mine[0], mine[1] - 1)
        if above and store_fate(ctx, facts, other_key, other) == written:
            # ``d["distributed_backend"] = "ddp"`` right above ``d["accelerator"] = "ddp"``: both are
            # ``d["strategy"] = "ddp"`` now, and the second one stores nothing new.
            marker = cst.Pass()
            ctx.removed_stores[id(marker)] = marker
            ctx.fix(
                rule,
                f"removed {here}: it is {name}[{quote}{new_key}{quote}] = "
                f"{ctx.code(_literal_node(written[0][1], quote))} now, as the store above it ({other_key}=) is",
                original,
            )
            return updated.with_changes(body=[marker])
    report_notes(ctx, plan, original)
    for other, other_key, new_key, _ in collisions:
        if other.line < line:
            ctx.report(
                rule,
                f"{name}[{quote}{new_key}{quote}] is now stored twice, from {other_key}= and {key}=, with the "
                "same value: one of the two stores can go",
                original,
            )
    lines = []
    for index, (new_key, value) in enumerate(plan.items):
        store = cst.Assign(
            targets=[
                cst.AssignTarget(
                    cst.Subscript(target.value, [cst.SubscriptElement(cst.Index(_literal_node(new_key, quote)))])
                )
            ],
            value=render(ctx, plan, value, quote),
        )
        line_node = updated.with_changes(body=[store])
        lines.append(line_node if index == 0 else line_node.with_changes(leading_lines=[]))
    return cst.FlattenSentinel(lines) if len(lines) > 1 else lines[0]


def _collision_message(
    ctx: FileContext,
    here: str,
    name: str,
    key: str,
    quote: str,
    facts: _DictFacts,
    collision: tuple[_Use, str, str, bool],
) -> str:
    """Why a store that would write the key another store (of another key) writes stays as it is."""
    _, other_key, new_key, _ = collision
    # Not named by its key: a run may migrate the other store (d["accelerator"] -> d["strategy"]), and the next
    # run must word this TODO the same.
    writes = f"{here} is left as it is: it would write {name}[{quote}{new_key}{quote}], as another store of {name} does"
    if _held(ctx, facts, other_key):
        return f"{writes}, which is left as it is (see its TODO); migrate them together"
    if "distributed_backend" in (key, other_key):
        why = (
            "1.4 took distributed_backend= over accelerator= whenever it was set, while in a dict the later store wins"
        )
    else:
        why = "1.x saw two flags, while in a dict the later store wins"
    return f"{writes}, with another value (or one that is not a literal): {why}; keep the one that applies"


def _removable(ctx: FileContext, facts: _DictFacts, key: str) -> bool:
    """Whether removing the one store of ``key`` is exact: the dict is a literal of this (function) scope that
    cannot hold ``key`` otherwise, and nothing else in the scope touches ``key``."""
    in_function = bool(ctx.scopes) and ctx.scopes[-1] is not ctx.analysis.module
    literal_keys = {k for k, _ in facts.literal_items}
    return in_function and facts.known_keys and key not in literal_keys and len(facts.uses.get(key, ())) == 1


def _not_removed(here: str, name: str, key: str, facts: _DictFacts, plan: Plan) -> str:
    reasons = "; ".join(_REMOVED.sub("", note.message) for note in plan.notes if _REMOVED.match(note.message))
    if len(facts.stores(key)) > 1:
        why = f"{name}[{key!r}] is stored elsewhere in this scope too, and this store may replace that value"
    else:
        why = f"{name} may hold {key} from elsewhere, and this store replaces it"
    return f"{here} can go ({reasons}), but is left as it is: {why}; remove it where that is not so"


def leave_block(ctx: FileContext, original: cst.IndentedBlock, updated: cst.IndentedBlock) -> Any:
    """Drop the stores :func:`leave_statement` removed; their comment lines (TODOs included) go to the next
    statement, or below the block's last one; a block left empty gets ``pass``, with them."""
    if not ctx.removed_stores:
        return updated
    marked = [
        isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1 and id(s.body[0]) in ctx.removed_stores
        for s in updated.body
    ]
    if not any(marked):
        return updated
    body: list[cst.BaseStatement] = []
    carry: list[cst.EmptyLine] = []
    for statement, removed in zip(updated.body, marked, strict=True):
        leading: Sequence[cst.EmptyLine] = getattr(statement, "leading_lines", ())
        if removed:
            carry.extend(leading)
            continue
        if carry:
            statement = statement.with_changes(leading_lines=[*carry, *leading])
            carry = []
        body.append(statement)
    if not body:
        return updated.with_changes(body=[cst.SimpleStatementLine([cst.Pass()], leading_lines=carry)])
    return updated.with_changes(body=body, footer=[*carry, *updated.footer])
