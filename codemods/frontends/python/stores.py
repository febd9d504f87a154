"""Dicts that feed a Trainer and are filled by subscript: ``d["gpus"] = 2``, and every other use of their keys.

A key migrates together with every use of it on the same dict in the same scope (stores, reads, ``del``, ``in``,
``.get``/``.pop``), or not at all: then one TODO at the store names what holds it. A store the plan empties is
removed only where that is exact; a fix is reported only for an edit that was made.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.plan.apply_rules import run_flag_rules
from codemods.plan.model import UNKNOWN, Plan, Value
from legacy_api.renames import PL

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

from codemods.frontends.python.dict_uses import (
    _REMOVED,
    _dict_facts,
    _DictFacts,
    _hold,
    _Use,
)
from codemods.frontends.python.flags import (
    report_notes,
    settle_plan,
)
from codemods.frontends.python.values import (
    _literal_node,
    literal,
    read,
    render,
)


# --- dicts filled by subscript ---------------------------------------------------------------------------------
def _ast_value(node: ast.expr) -> Value:
    """A store's value read from ``ast``, as far as a plan needs it to see what the store becomes."""
    try:
        lit: Any = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        lit = UNKNOWN
    if isinstance(lit, tuple):
        lit = list(lit)
    if lit is not UNKNOWN and not isinstance(lit, str | int | bool | list | type(None)):
        lit = UNKNOWN
    return Value(lit=lit, source=ast.unparse(node))


def _fate(ctx: FileContext, key: str, value: Value) -> list[tuple[str, Any]]:
    """What the store ``d[key] = value`` becomes at the target: the keys it writes, with their literal values
    (UNKNOWN where not a literal). A trial plan: nothing is reported."""
    origin = {key: "explicit"}
    plan = Plan([(key, value)], ctx.target, PL, ctx.enabled, True, origin=origin, trial=True, untuned=ctx.untuned)
    run_flag_rules(plan)
    return [(k, v.lit if v.node is None or v is value else UNKNOWN) for k, v in plan.items]


def _store_fate(ctx: FileContext, facts: _DictFacts, key: str, store: _Use) -> list[tuple[str, Any]]:
    assert store.value is not None
    if id(store) not in facts.fates:
        facts.fates[id(store)] = _fate(ctx, key, _ast_value(store.value))
    return facts.fates[id(store)]


def _follow(ctx: FileContext, facts: _DictFacts, key: str) -> tuple[str, str] | None:
    if key not in facts.follows:
        facts.follows[key] = _find_follow(ctx, facts, key)
    return facts.follows[key]


def _find_follow(ctx: FileContext, facts: _DictFacts, key: str) -> tuple[str, str] | None:
    """(the new key, the rule) when every use of ``key`` can be renamed with its stores, exactly: the dict is a
    literal of this scope whose keys this scan sees, ``key`` is written only by plain stores of literals that
    each become one store of the same new key with the same value, and nothing else in the scope writes or
    uses that new key. None otherwise (then the stores stay, with a TODO)."""
    uses = facts.uses.get(key, [])
    stores = facts.stores(key)
    literal_keys = {k for k, _ in facts.literal_items}
    if not facts.known_keys or key in literal_keys or not stores:
        return None
    if any(use.value is None and not use.movable for use in uses):
        return None
    new_key: str | None = None
    for store in stores:
        assert store.value is not None
        old = _ast_value(store.value)
        fate = _store_fate(ctx, facts, key, store)
        if not old.known or len(fate) != 1 or fate[0][1] != old.lit or fate[0][0] == key:
            return None
        if new_key not in (None, fate[0][0]):
            return None
        new_key = fate[0][0]
    assert new_key is not None
    if new_key in facts.uses or new_key in literal_keys:
        return None
    for other_key in facts.uses:
        if other_key != key and any(
            {key, new_key} & set(dict(_store_fate(ctx, facts, other_key, store))) for store in facts.stores(other_key)
        ):
            return None  # another store writes the new key, or the old one (distributed_backend= -> accelerator=)
    plan = Plan([(key, _ast_value(stores[0].value))], ctx.target, PL, ctx.enabled, opaque_rest=True, trial=True)  # type: ignore[arg-type]
    run_flag_rules(plan)
    rule = next((note.rule for note in plan.notes if note.kind == "fix"), "")
    return (new_key, rule) if rule else None


def _followed(ctx: FileContext, owner: cst.BaseExpression, key: cst.BaseExpression) -> tuple[str, str, str] | None:
    """``d`` and ``"key"`` of a use: (the dict, the new key, the rule) when the key follows its stores."""
    if not (ctx.trainer_dicts and isinstance(owner, cst.Name) and owner.value in ctx.trainer_dicts):
        return None
    if not isinstance(key, cst.SimpleString) or not isinstance(key.evaluated_value, str):
        return None
    facts = _dict_facts(ctx, owner.value)
    found = _follow(ctx, facts, key.evaluated_value) if key.evaluated_value in facts.uses else None
    return (owner.value, *found) if found is not None else None


def _renamed_key(ctx: FileContext, key: cst.SimpleString, new_key: str, node: cst.CSTNode, rule: str, name: str) -> Any:
    ctx.fix(
        rule,
        f"{name}[{key.value}] is {name}[{ctx.code(_literal_node(new_key, key.quote[-1]))}] now: it follows the "
        f"stores of {key.evaluated_value!s}=",
        node,
    )
    return _literal_node(new_key, key.quote[-1])


def _stored_to(ctx: FileContext, node: cst.Subscript) -> bool:
    """Whether ``node`` is the target of the assignment being visited (:func:`leave_statement` renames it)."""
    statement = ctx.statements[-1] if ctx.statements else None
    body = getattr(statement, "body", None)
    assign = body[0] if isinstance(body, Sequence) and body else None
    return isinstance(assign, cst.Assign) and any(target.target is node for target in assign.targets)


def leave_subscript(ctx: FileContext, original: cst.Subscript, updated: cst.Subscript) -> Any:
    """``d["gpus"]`` (a read or a ``del``) where ``d["gpus"] = 2`` became ``d["devices"] = 2`` (:func:`_follow`)."""
    if len(original.slice) != 1 or not isinstance(original.slice[0].slice, cst.Index) or _stored_to(ctx, original):
        return updated
    key = original.slice[0].slice.value
    found = _followed(ctx, original.value, key)
    if found is None or not isinstance(key, cst.SimpleString):
        return updated
    name, new_key, rule = found
    index = updated.slice[0].slice
    assert isinstance(index, cst.Index)
    new = _renamed_key(ctx, key, new_key, original, rule, name)
    return updated.with_changes(slice=[updated.slice[0].with_changes(slice=index.with_changes(value=new))])


def leave_comparison(ctx: FileContext, original: cst.Comparison, updated: cst.Comparison) -> Any:
    """``"gpus" in d`` where the key follows its stores (:func:`_follow`)."""
    if len(original.comparisons) != 1 or not isinstance(original.comparisons[0].operator, cst.In | cst.NotIn):
        return updated
    key = original.left
    found = _followed(ctx, original.comparisons[0].comparator, key)
    if found is None or not isinstance(key, cst.SimpleString):
        return updated
    name, new_key, rule = found
    return updated.with_changes(left=_renamed_key(ctx, key, new_key, original, rule, name))


def keyed_call(ctx: FileContext, original: cst.Call, updated: cst.Call) -> Any:
    """``d.get("gpus")`` / ``d.pop("gpus")`` where the key follows its stores (:func:`_follow`)."""
    func = original.func
    if not (isinstance(func, cst.Attribute) and func.attr.value in ("get", "pop") and original.args):
        return updated
    first = original.args[0]
    if first.keyword is not None or first.star:
        return updated
    found = _followed(ctx, func.value, first.value)
    if found is None or not isinstance(first.value, cst.SimpleString):
        return updated
    name, new_key, rule = found
    new = _renamed_key(ctx, first.value, new_key, original, rule, name)
    return updated.with_changes(args=[updated.args[0].with_changes(value=new), *updated.args[1:]])


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
    return bool(facts.others(key)) and _follow(ctx, facts, key) is None


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
            fate = _store_fate(ctx, facts, other_key, other)
            if held:  # it stays as it is, and a migration of it would write what its TODO says
                fate = [*fate, (other_key, _ast_value(other.value).lit)]
            for new_key, lit in fate:
                if new_key in mine:
                    same = lit is not UNKNOWN and mine[new_key] is not UNKNOWN and lit == mine[new_key]
                    found.append((other, other_key, new_key, same and not held))
    return found


#: How a note about a flag the plan removed begins (``removed gpus=0: it chose no accelerator``).
def leave_statement(ctx: FileContext, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine) -> Any:
    """``params["tpu_cores"] = 8`` where ``params`` feeds a Trainer: one store may become two, or none.

    A key is migrated with every use of it in the scope, or not at all. Its reads, ``del``, ``in`` tests,
    ``.get`` and ``.pop`` are renamed with it where that is exact (:func:`_follow`); otherwise a store whose key
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
    follow = _follow(ctx, facts, key) if others else None
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
        if above and _store_fate(ctx, facts, other_key, other) == written:
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
