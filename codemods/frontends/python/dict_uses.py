"""What a dict that feeds a Trainer meets in its scope: every store, read, ``del``, ``in`` test and keyed call.

Scanned once per scope and name (``ast``), for the front end to decide whether a key may migrate with all its
uses (``codemods.frontends.python.stores``, and dict literals in ``codemods.frontends.python.flags``).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.plan.model import Plan

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext


# --- dicts filled by subscript ---------------------------------------------------------------------------------
#: Methods of a dict that take a key first, and the kind of use each is.
_KEYED_METHODS = frozenset({"get", "pop", "setdefault"})
#: Methods that may put any key into a dict (or take any out).
_MUTATORS = frozenset({"update", "setdefault", "pop", "popitem", "clear", "__setitem__", "__delitem__", "__ior__"})


#: Methods of a dict that take a key first, and the kind of use each is.
_KEYED_METHODS = frozenset({"get", "pop", "setdefault"})
#: Methods that may put any key into a dict (or take any out).
_MUTATORS = frozenset({"update", "setdefault", "pop", "popitem", "clear", "__setitem__", "__delitem__", "__ior__"})


@dataclass
class _Use:
    """One use of ``d["key"]`` in a scope: a plain store ``d["key"] = value`` (``value`` set), or anything else
    (a read, ``del``, ``"key" in d``, ``d.get("key")``..., or a store in a nested scope), quoted in ``text``."""

    line: int
    text: str
    value: ast.expr | None = None
    #: A plain store's place: (id of the statement list it is in, its index there).
    slot: tuple[int, int] | None = None
    #: A read, ``del``, ``in`` test, ``.get`` or ``.pop`` of this very scope: renaming its key keeps its meaning
    #: when the key's every store is renamed the same way (:func:`_follow`).
    movable: bool = False


@dataclass
class _DictFacts:
    """What one scope does with the keys of one dict that feeds a Trainer."""

    uses: dict[str, list[_Use]] = field(default_factory=dict)
    #: The name is bound here only by ``d = {...}`` / ``d = dict(k=v)`` literals, and never used in a way that
    #: may add a key this scan does not see (``d.update(...)``, ``d[k] = ...``, passed to a function...).
    known_keys: bool = True
    #: Keys of those literals: (key, value).
    literal_items: list[tuple[str, ast.expr]] = field(default_factory=list)
    #: id of a plain store -> what it becomes (:func:`_fate`), once computed.
    fates: dict[int, list[tuple[str, Any]]] = field(default_factory=dict)
    #: key -> what :func:`_follow` said, once computed.
    follows: dict[str, tuple[str, str] | None] = field(default_factory=dict)

    def stores(self, key: str) -> list[_Use]:
        return [use for use in self.uses.get(key, ()) if use.value is not None]

    def others(self, key: str) -> list[str]:
        """How the scope uses ``key`` other than by plain stores, each quoted once."""
        return list(dict.fromkeys(use.text for use in self.uses.get(key, ()) if use.value is None))


def _const_key(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _literal_dict(node: ast.expr | None) -> list[tuple[str, ast.expr]] | None:
    """The items of ``{"k": v}`` / ``dict(k=v)`` (no ``**``), None for anything else."""
    if isinstance(node, ast.Dict):
        keys = [_const_key(key) if key is not None else None for key in node.keys]
        if all(key is not None for key in keys):
            return [(str(key), value) for key, value in zip(keys, node.values, strict=True)]
        return None
    call = isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict"
    if call and not node.args and all(keyword.arg is not None for keyword in node.keywords):  # type: ignore[union-attr]
        return [(str(keyword.arg), keyword.value) for keyword in node.keywords]  # type: ignore[union-attr]
    return None


def _binds(scope: ast.AST, name: str) -> bool:
    """Whether the function or class ``scope`` has a local ``name`` of its own (a parameter, an assignment)."""
    if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
        arguments = scope.args
        every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]
        if any(arg is not None and arg.arg == name for arg in every):
            return True
    found: Any = getattr(scope, "body", [])
    body: list[ast.AST] = found if isinstance(found, list) else [found]
    declared = any(
        isinstance(node, ast.Global | ast.Nonlocal) and name in node.names for s in body for node in ast.walk(s)
    )
    stored = any(
        isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store)
        for s in body
        for node in ast.walk(s)
    )
    return stored and not declared


def _scan_dict(body: Sequence[ast.stmt], name: str, params: frozenset[str]) -> _DictFacts:
    """Every use of the dict ``name`` in a scope's ``body`` (uses in nested scopes count, as uses elsewhere)."""
    facts = _DictFacts(known_keys=name not in params)
    seen: set[int] = set()  # ids of the Name nodes a use accounts for
    slots: dict[int, tuple[int, int]] = {id(s): (id(body), i) for i, s in enumerate(body)}
    for statement in body:
        for node in ast.walk(statement):
            for _, value in ast.iter_fields(node):
                if isinstance(value, list):
                    slots.update(
                        (id(item), (id(value), i)) for i, item in enumerate(value) if isinstance(item, ast.stmt)
                    )

    def use(
        key: str,
        line: int,
        text: str,
        value: ast.expr | None = None,
        slot: tuple[int, int] | None = None,
        movable: bool = False,
    ) -> None:
        facts.uses.setdefault(key, []).append(_Use(line, text, value, slot, movable))

    def visit(node: ast.AST, nested: bool) -> None:
        opens = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef)
        if opens and _binds(node, name):
            return  # its own ``name``: another dict
        inner = nested or opens
        if isinstance(node, ast.Global | ast.Nonlocal) and name in node.names:
            facts.known_keys = False
        if isinstance(node, ast.Assign) and not nested:
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id == name:
                    seen.add(id(target))
                    items = _literal_dict(node.value) if len(node.targets) == 1 else None
                    if items is None:
                        facts.known_keys = False
                    else:
                        facts.literal_items.extend(items)
                        for item_key, item_value in items:
                            use(item_key, node.lineno, f"{name} = {ast.unparse(node.value)}", item_value)
                if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and target.value.id == name:
                    stored = _const_key(target.slice)
                    if stored is not None and len(node.targets) == 1:
                        seen.add(id(target.value))
                        use(stored, node.lineno, ast.unparse(node), node.value, slots.get(id(node)))
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == name:
            subscripted = _const_key(node.slice)
            if subscripted is None:
                if not isinstance(node.ctx, ast.Load):
                    facts.known_keys = False
                seen.add(id(node.value))
            elif id(node.value) not in seen:
                seen.add(id(node.value))
                text = ast.unparse(node)
                delete = isinstance(node.ctx, ast.Del)
                movable = not nested and isinstance(node.ctx, ast.Load | ast.Del)
                use(subscripted, node.lineno, f"del {text}" if delete else text, movable=movable)
        elif isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.In | ast.NotIn):
            right = node.comparators[0]
            tested = _const_key(node.left)
            if tested is not None and isinstance(right, ast.Name) and right.id == name:
                seen.add(id(right))
                use(tested, node.lineno, ast.unparse(node), movable=not nested)
        if isinstance(node, ast.Call):
            for keyword in node.keywords:  # ``Trainer(**d)``, ``f(**d)``: read only
                if keyword.arg is None and isinstance(keyword.value, ast.Name) and keyword.value.id == name:
                    seen.add(id(keyword.value))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            if isinstance(owner, ast.Name) and owner.id == name:
                seen.add(id(owner))
                first = _const_key(node.args[0]) if node.args else None
                if node.func.attr in _KEYED_METHODS and first is not None:
                    use(first, node.lineno, ast.unparse(node), movable=not nested and node.func.attr != "setdefault")
                if node.func.attr in _MUTATORS and (first is None or node.func.attr == "setdefault"):
                    facts.known_keys = False
        elif isinstance(node, ast.Name) and node.id == name and id(node) not in seen:
            facts.known_keys = False  # passed along, rebound, aliased: anything may happen to its keys
        for child in ast.iter_child_nodes(node):
            visit(child, inner)

    for statement in body:
        visit(statement, False)
    return facts


def _dict_facts(ctx: FileContext, name: str) -> _DictFacts:
    """The facts about ``name`` in the scope around the visited node (scanned once per scope and name)."""
    scope = ctx.scopes[-1] if ctx.scopes else ctx.analysis.module
    cached = ctx.dict_facts.setdefault(id(scope), {})
    if name not in cached:
        if scope is ctx.analysis.module:
            body: list[ast.stmt] = [s.node for s in ctx.analysis.statements if s.depth == 0]
        else:
            owner = next((s.node for s in ctx.analysis.statements if s.scope is scope), None)
            body = list(getattr(owner, "body", ()))
        cached[name] = _scan_dict(body, name, scope.params)
    return cached[name]  # type: ignore[no-any-return]


_REMOVED = re.compile(r"^removed [^:]+: ")


def _hold(ctx: FileContext, plan: Plan, original: cst.CSTNode, rule: str, message: str) -> None:
    """Leave the store as it is, with one TODO: why it stays, and what it would become (the plan's notes)."""
    changes = [note.message for note in plan.notes if note.kind != "report" and not _REMOVED.match(note.message)]
    ctx.todo(rule, f"{message} (here: {'; '.join(changes)})" if changes else message, original)
