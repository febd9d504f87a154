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

from codemods.frontends.python.dict_uses import _dict_facts, _DictFacts, _Use
from codemods.frontends.python.values import _literal_node
from codemods.plan.apply_rules import run_flag_rules
from codemods.plan.model import UNKNOWN, Plan, Value
from legacy_api.renames import PL

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext


# --- dicts filled by subscript ---------------------------------------------------------------------------------
def ast_value(node: ast.expr) -> Value:
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


def store_fate(ctx: FileContext, facts: _DictFacts, key: str, store: _Use) -> list[tuple[str, Any]]:
    assert store.value is not None
    if id(store) not in facts.fates:
        facts.fates[id(store)] = _fate(ctx, key, ast_value(store.value))
    return facts.fates[id(store)]


def key_follows(ctx: FileContext, facts: _DictFacts, key: str) -> tuple[str, str] | None:
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
        old = ast_value(store.value)
        fate = store_fate(ctx, facts, key, store)
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
            {key, new_key} & set(dict(store_fate(ctx, facts, other_key, store))) for store in facts.stores(other_key)
        ):
            return None  # another store writes the new key, or the old one (distributed_backend= -> accelerator=)
    plan = Plan([(key, ast_value(stores[0].value))], ctx.target, PL, ctx.enabled, opaque_rest=True, trial=True)  # type: ignore[arg-type]
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
    found = key_follows(ctx, facts, key.evaluated_value) if key.evaluated_value in facts.uses else None
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
    """``d["gpus"]`` (a read or a ``del``) where ``d["gpus"] = 2`` became ``d["devices"] = 2`` (:func:`key_follows`)."""
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
    """``"gpus" in d`` where the key follows its stores (:func:`key_follows`)."""
    if len(original.comparisons) != 1 or not isinstance(original.comparisons[0].operator, cst.In | cst.NotIn):
        return updated
    key = original.left
    found = _followed(ctx, original.comparisons[0].comparator, key)
    if found is None or not isinstance(key, cst.SimpleString):
        return updated
    name, new_key, rule = found
    return updated.with_changes(left=_renamed_key(ctx, key, new_key, original, rule, name))


def keyed_call(ctx: FileContext, original: cst.Call, updated: cst.Call) -> Any:
    """``d.get("gpus")`` / ``d.pop("gpus")`` where the key follows its stores (:func:`key_follows`)."""
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
