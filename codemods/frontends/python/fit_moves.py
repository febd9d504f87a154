"""Where ``Trainer(resume_from_checkpoint=X)`` can become ``trainer.fit(..., ckpt_path=X)`` exactly.

Lightning 1.5.10 resumed only the first ``fit`` after the Trainer was built: ``fit`` read ``ckpt_path or
resume_from_checkpoint``, and the fit that restored the checkpoint cleared it. ``ckpt_path=X`` on that one ``fit``
does the same in every release since 1.5 (the replacement 1.5's deprecation named). So the move is made only where
the code shows which ``fit`` that is, and that ``X`` still reads the same value there:

* ``<call>(..., resume_from_checkpoint=X).fit(...)``, or ``trainer = <call>(..., resume_from_checkpoint=X, ...)``
  in a function or module body; ``X`` is pure (names, attributes, subscripts by a constant or a name);
* the scope has exactly one ``trainer.fit(...)``, an expression statement after the assignment, in its block or
  nested in ``if``/``with``/``try`` statements there, never in a loop the assignment is not in (a second run of
  ``fit`` did not resume in 1.5);
* ``trainer`` is assigned once and only ever read as ``trainer.<attribute>`` in the scope itself: a Trainer passed
  on, returned or closed over might be fit elsewhere (after the ``fit``, where that stands in the assignment's own
  block, it may: that ``fit`` resumed first);
* that ``fit`` has no ``ckpt_path=`` already, no ``*``/``**`` arguments and at most four positional ones;
* no name ``X`` reads is stored to (or deleted) between the assignment and the ``fit``.

Everywhere else the argument keeps its TODO (rule ``removed_arguments``). The analysis reads the ``ast`` only;
whether the call is a Trainer is for the flag front end to decide.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import TYPE_CHECKING

import libcst as cst

from codemods.frontends.python.layout import append_argument
from codemods.frontends.python.qualnames import parameters

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext
    from codemods.plan.model import Plan

#: The flag and the ``fit()`` argument that takes its value (``legacy_api.removed_arguments``' ``fit_argument``).
FLAG = "resume_from_checkpoint"
#: :func:`resume_moves`' line for a Trainer that nothing fits: 1.5.10 read the flag only in ``fit`` (``_fit_impl``:
#: ``ckpt_path or self.resume_from_checkpoint``), so it did nothing there and goes.
NEVER_FIT = 0
#: The Trainer attributes that fit (the tuner fits inside) or read the flag.
_FITS = frozenset({"fit", "tune", "tuner", FLAG, "checkpoint_connector", "_checkpoint_connector"})
_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_LOOPS = (ast.For, ast.AsyncFor, ast.While)


def resume_moves(tree: ast.Module) -> dict[int, int]:
    """Line of each ``trainer = ...(resume_from_checkpoint=X)`` statement whose value can move -> line of its fit."""
    moves: dict[int, int] = {}
    for scope in _scopes(tree):
        moves.update(_moves_in(scope))
    return moves


def _scopes(tree: ast.Module) -> Iterator[ast.Module | ast.FunctionDef | ast.AsyncFunctionDef]:
    yield tree
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def _own_nodes(body: list[ast.stmt]) -> Iterator[ast.AST]:
    """Every node of a scope's body, not descending into nested scopes (defs, lambdas, classes, comprehensions)."""
    stack: list[ast.AST] = list(reversed(body))
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (*_NESTED, *_COMPREHENSIONS)):
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


def _moves_in(scope: ast.Module | ast.FunctionDef | ast.AsyncFunctionDef) -> dict[int, int]:
    own = list(_own_nodes(scope.body))
    parents = _parents(scope)
    moves: dict[int, int] = {}
    for node in own:
        if isinstance(node, ast.Expr) and _chained(node.value):
            moves[node.lineno] = node.lineno  # ``Trainer(resume_from_checkpoint=X).fit(model)``: its one fit
            continue
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
            continue
        if not isinstance(node.value, ast.Call):
            continue
        value = next((k.value for k in node.value.keywords if k.arg == FLAG), None)
        if value is None or not _pure(value):
            continue
        fit = _the_fit(scope, own, parents, node, node.targets[0].id)
        if fit is not None and not _stored_between(own, _reads(value), node, fit):
            moves[node.lineno] = fit.lineno
        elif fit is None and _never_fit(scope, own, parents, node):
            moves[node.lineno] = NEVER_FIT
    return moves


def _bound_here(
    scope: ast.Module | ast.FunctionDef | ast.AsyncFunctionDef, own: list[ast.AST], assign: ast.Assign
) -> bool:
    """Whether ``assign``'s name is that scope's own and ``assign`` its only binding: no parameter, no ``global`` or
    ``nonlocal``, no other store or ``del``, no nested scope reading it."""
    target = assign.targets[0]
    assert isinstance(target, ast.Name)
    name = target.id
    if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef) and name in parameters(scope):
        return False
    if _closed_over(scope.body, name):
        return False
    for node in own:
        if isinstance(node, ast.Global | ast.Nonlocal) and name in node.names:
            return False
        stored = isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store | ast.Del)
        if stored and node is not target:
            return False
    return True


def _never_fit(
    scope: ast.Module | ast.FunctionDef | ast.AsyncFunctionDef,
    own: list[ast.AST],
    parents: dict[int, ast.AST],
    assign: ast.Assign,
) -> bool:
    """Whether the Trainer ``assign`` binds in a function is never fit: bound there only (:func:`_bound_here`), never
    passed on or returned, and only ever read as ``trainer.<attribute>`` other than those that fit (``fit``, the
    tuner's ``tune``/``tuner``, which fit inside) or read the flag (``resume_from_checkpoint``, the connector)."""
    if not isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef) or not _bound_here(scope, own, assign):
        return False
    target = assign.targets[0]
    assert isinstance(target, ast.Name)
    name = target.id
    for node in own:
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load):
            attribute = parents.get(id(node))
            if not isinstance(attribute, ast.Attribute) or attribute.attr in _FITS:
                return False
    return True


def _chained(node: ast.expr) -> bool:
    """``<call>(..., resume_from_checkpoint=X).fit(...)`` with a pure ``X`` and a fit that can take ``ckpt_path``."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "fit"):
        return False
    built = node.func.value
    if not isinstance(built, ast.Call):
        return False
    value = next((k.value for k in built.keywords if k.arg == FLAG), None)
    return value is not None and _pure(value) and _takes_ckpt_path(node)


def _takes_ckpt_path(call: ast.Call) -> bool:
    """No ``ckpt_path=`` yet, no ``*``/``**``, and at most the four positional arguments before it."""
    if any(k.arg in (None, "ckpt_path") for k in call.keywords) or len(call.args) > 4:
        return False
    return not any(isinstance(a, ast.Starred) for a in call.args)


def _the_fit(
    scope: ast.Module | ast.FunctionDef | ast.AsyncFunctionDef,
    own: list[ast.AST],
    parents: dict[int, ast.AST],
    assign: ast.Assign,
    name: str,
) -> ast.Expr | None:
    """The one ``name.fit(...)`` statement that runs once after ``assign``, when ``name`` never leaves the scope."""
    if not _bound_here(scope, own, assign):
        return None
    fits: list[ast.Attribute] = []
    for node in own:
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == name:
            fits.extend([node] if node.attr == "fit" else [])
    if len(fits) != 1:
        return None
    call = parents.get(id(fits[0]))
    statement = parents.get(id(call))
    if not (isinstance(call, ast.Call) and call.func is fits[0] and isinstance(statement, ast.Expr)):
        return None
    if not _takes_ckpt_path(call) or not _runs_once_after(parents, assign, statement):
        return None
    later = _after_in_block(parents, assign, statement)
    for node in own:
        read = isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load)
        if read and not isinstance(parents.get(id(node)), ast.Attribute) and not _within(parents, node, later):
            return None  # passed on or aliased before the fit: it may be fit elsewhere first
    return statement


def _after_in_block(parents: dict[int, ast.AST], assign: ast.stmt, fit: ast.stmt) -> list[ast.stmt]:
    """The statements of ``assign``'s block after ``fit`` where ``fit`` stands in that block itself (it has run
    by then): a Trainer returned or passed on there (ReAgent's ``return trainer``) was fit here first, and a
    later ``fit`` did not resume in 1.5."""
    block = next((b for b in _blocks(parents.get(id(assign)) or assign) if any(s is fit for s in b)), None)
    if block is None:
        return []
    return block[next(i for i, s in enumerate(block) if s is fit) + 1 :]


def _within(parents: dict[int, ast.AST], node: ast.AST, statements: list[ast.stmt]) -> bool:
    ids = {id(statement) for statement in statements}
    found: ast.AST | None = node
    while found is not None:
        if id(found) in ids:
            return True
        found = parents.get(id(found))
    return False


def _closed_over(body: list[ast.stmt], name: str) -> bool:
    """``name`` is read in a nested scope that does not bind its own (a def, lambda, class or comprehension)."""
    for node in _own_nodes(body):
        if not isinstance(node, (*_NESTED, *_COMPREHENSIONS)):
            continue
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) and _binds(node, name):
            continue  # its own local of that name
        if any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node)):
            return True
    return False


def _binds(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, name: str) -> bool:
    body: list[ast.stmt] = node.body if isinstance(node.body, list) else [ast.Expr(node.body)]
    if any(isinstance(n, ast.Global | ast.Nonlocal) and name in n.names for n in _own_nodes(body)):
        return False
    stored = any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store) for n in _own_nodes(body))
    return stored or name in parameters(node)


def _runs_once_after(parents: dict[int, ast.AST], assign: ast.stmt, fit: ast.stmt) -> bool:
    """``fit`` is in a statement after ``assign`` in ``assign``'s own block, through no loop of its own."""
    chain: list[ast.AST] = []
    node: ast.AST | None = fit
    while node is not None:
        chain.append(node)
        node = parents.get(id(node))
    block_owner = parents.get(id(assign))
    if block_owner is None or block_owner not in chain:
        return False
    inner = chain[: chain.index(block_owner)]
    if any(isinstance(step, _LOOPS) for step in inner):
        return False
    top = inner[-1]  # the statement of assign's block that holds the fit
    block = next((b for b in _blocks(block_owner) if any(s is assign for s in b)), None)
    if block is None or not any(s is top for s in block):
        return False
    return next(i for i, s in enumerate(block) if s is top) > next(i for i, s in enumerate(block) if s is assign)


def _blocks(node: ast.AST) -> Iterator[list[ast.stmt]]:
    for field in ("body", "orelse", "finalbody"):
        block = getattr(node, field, None)
        if isinstance(block, list):
            yield block
    for handler in getattr(node, "handlers", ()):
        yield handler.body
    for case in getattr(node, "cases", ()):
        yield case.body


def _parents(scope: ast.AST) -> dict[int, ast.AST]:
    return {id(child): node for node in ast.walk(scope) for child in ast.iter_child_nodes(node)}


def _pure(node: ast.expr) -> bool:
    """Names, attributes, subscripts by a constant or a name, constants: reading it twice reads one value."""
    if isinstance(node, ast.Name | ast.Constant):
        return True
    if isinstance(node, ast.Attribute):
        return _pure(node.value)
    if isinstance(node, ast.Subscript):
        return _pure(node.value) and isinstance(node.slice, ast.Constant | ast.Name)
    return False


def _reads(node: ast.expr) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _root(node: ast.expr) -> str | None:
    while isinstance(node, ast.Attribute | ast.Subscript):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _stored_between(own: list[ast.AST], names: set[str], start: ast.stmt, end: ast.stmt) -> bool:
    """A store to (or ``del`` of) one of ``names``, or of an attribute or item under one, between the two lines."""
    first, last = start.end_lineno or start.lineno, end.lineno
    for node in own:
        if not isinstance(node, ast.Name | ast.Attribute | ast.Subscript):
            continue
        if not isinstance(node.ctx, ast.Store | ast.Del) or not first <= node.lineno <= last:
            continue
        if _root(node) in names:
            return True
    return False


# --- the libcst half, called by the flag front end (codemods.frontends.python.flags)
# -------------------------------------
def offer(ctx: FileContext, plan: Plan) -> None:
    """Let the flag rules move ``resume_from_checkpoint`` when this call's statement is one :func:`resume_moves`
    found (rule ``removed_arguments`` decides, and says so in ``plan.fitted``)."""
    if ctx.fit_moves and ctx.anchors and ctx.anchors[-1][1] in ctx.fit_moves and FLAG in plan:
        if ctx.fit_moves[ctx.anchors[-1][1]] == NEVER_FIT:
            plan.never_fit = True
        else:
            plan.to_fit = frozenset({FLAG})


def hand_over(ctx: FileContext, plan: Plan, before: cst.Call, rebuilt: cst.Call) -> None:
    """The flags a rule moved and the rebuilt call dropped: their values (as ``before`` spelled them) go to the fit,
    which the pass visits later."""
    from legacy_api.removed_arguments import REMOVED_ARGUMENTS

    kept = {a.keyword.value for a in rebuilt.args if a.keyword is not None}
    moved = [
        a
        for a in before.args
        if a.keyword is not None and a.keyword.value in plan.fitted and a.keyword.value not in kept
    ]
    if not moved:
        return
    names = {row.name: row.fit_argument for row in REMOVED_ARGUMENTS if row.fit_argument is not None}
    fit_line = ctx.fit_moves[ctx.anchors[-1][1]]
    ctx.fit_arguments.setdefault(fit_line, []).extend((names[a.keyword.value], a) for a in moved if a.keyword)


def receive(ctx: FileContext, original: cst.Call, updated: cst.Call) -> cst.Call:
    """``trainer.fit(model, dm)`` -> ``trainer.fit(model, dm, ckpt_path=X)`` on the line :func:`hand_over` named."""
    line = ctx.anchors[-1][1] if ctx.anchors else 0
    if line not in ctx.fit_arguments:
        return updated
    if not (isinstance(original.func, cst.Attribute) and original.func.attr.value == "fit"):
        return updated
    args = list(updated.args)
    for name, moved in ctx.fit_arguments.pop(line):
        new = cst.Arg(moved.value.deep_clone(), keyword=cst.Name(name), equal=moved.equal)
        args = append_argument(args, updated.whitespace_before_args, new)
    return updated.with_changes(args=args)
