"""What a flag value that is not a literal may hold, and whether it may be written twice (:class:`Facts`).

``Trainer(gpus=AVAIL_GPUS)`` with ``AVAIL_GPUS = min(1, torch.cuda.device_count())`` bound once at module level
holds 0 or 1; ``gpus=args.gpus`` holds anything, but reading it twice reads the same. The flag rules use these
facts to write ``accelerator=`` and ``devices=`` from the expression itself where that is exact
(``codemods.rules.device_flags``), and to see both branches of a strategy name held in a variable.

Pure: names, attribute chains and subscripts of those with constant keys, constants, and the ``torch.cuda``
queries (``torch.cuda.device_count()``, ``torch.cuda.is_available()``), and ``int()`` of a pure value (an int); no
other call. A name is followed to its
value only when its scope (the function or the module the use sees it in) binds it exactly once, by a plain
``name = value``: a second assignment, an augmented or annotated one, a loop, ``with`` or ``except`` target, an
import, a ``del``, a walrus, or a ``global``/``nonlocal`` of it in a nested function, and the name holds
something unknown (it is still pure).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.frontends.python.qualnames import Scope, assigned_values
from codemods.plan.model import Facts

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

#: How deep a chain of names bound to names is followed (``a = b``, ``b = 1``).
_DEPTH = 4
_UNKNOWN_PURE = Facts(pure=True)


def facts(ctx: FileContext, node: cst.BaseExpression) -> Facts | None:
    """What ``node`` (a flag's value) may hold; None when it is not pure and nothing is known of it."""
    try:
        tree = ast.parse(f"(\n{ctx.code(node)}\n)", mode="eval")
    except SyntaxError:
        return None
    return _facts(ctx, tree.body, ctx.scopes, 0)


def _facts(ctx: FileContext, node: ast.expr, scopes: list[Scope], depth: int) -> Facts | None:
    if isinstance(node, ast.Constant | ast.UnaryOp | ast.List | ast.Tuple) and not (
        isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)
    ):
        try:
            value = ast.literal_eval(node)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return None
        value = list(value) if isinstance(value, tuple) else value
        return Facts(pure=True, options=(value,), no_str=not isinstance(value, str))
    if isinstance(node, ast.Name):
        bound = _bound_once(ctx, node.id, scopes) if depth < _DEPTH else None
        found = _facts(ctx, bound[0], scopes[: bound[1] + 1], depth + 1) if bound is not None else None
        if found is None:
            return _UNKNOWN_PURE
        return Facts(pure=True, options=found.options, no_str=found.no_str, branches=found.branches)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.attr in ctx.int_options:
        return Facts(pure=True, no_str=True)  # args.gpus of the file's own parser.add_argument("--gpus", type=int)
    if isinstance(node, ast.Attribute | ast.Subscript):
        return _UNKNOWN_PURE if _is_path(node) else None
    if isinstance(node, ast.IfExp):
        test = _facts(ctx, node.test, scopes, depth)
        yes, no = _facts(ctx, node.body, scopes, depth), _facts(ctx, node.orelse, scopes, depth)
        if yes is None or no is None:
            return None
        options = yes.options + no.options if yes.options is not None and no.options is not None else None
        pure = test is not None and test.pure and yes.pure and no.pure
        single = pure and yes.options is not None and no.options is not None
        single = single and len(yes.options or ()) == 1 and len(no.options or ()) == 1
        branches = (ast.unparse(node.test), yes.options[0], no.options[0]) if single else None  # type: ignore[index]
        return Facts(pure=pure, options=_unique(options), no_str=yes.no_str and no.no_str, branches=branches)
    tested = _test_parts(node)
    if tested is not None:
        # ``args.gpus > 1``, ``args.gpus and args.gpus > 1``, ``not args.gpus``: the test of a conditional flag; pure
        # where its operands are (a rule may evaluate it for each value another flag holding the same operand may
        # take: codemods.plan.value_tests)
        operands = [_facts(ctx, part, scopes, depth) for part in tested]
        return Facts(pure=True) if all(found is not None and found.pure for found in operands) else None
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        return _either(ctx, node, scopes, depth)
    if isinstance(node, ast.Call):
        return _idiom(ctx, node, scopes, depth)
    return None


def _either(ctx: FileContext, node: ast.BoolOp, scopes: list[Scope], depth: int) -> Facts | None:
    """``backend or "auto"`` (what a rule writes for a strategy name that may be None): its options, exactly."""
    parts = [_facts(ctx, value, scopes, depth) for value in node.values]
    if any(part is None or not part.pure for part in parts):
        return None
    options: tuple[Any, ...] | None = ()
    for part in parts:
        assert part is not None
        if part.options is None:
            return Facts(pure=True, no_str=all(p is not None and p.no_str for p in parts))
        # ``a or b`` is a when a is truthy: only the falsy options go on to the next operand
        options = (*[o for o in options if o], *part.options) if options else part.options
    return Facts(pure=True, options=_unique(options), no_str=all(p is not None and p.no_str for p in parts))


def _idiom(ctx: FileContext, node: ast.Call, scopes: list[Scope], depth: int) -> Facts | None:
    """``torch.cuda.device_count()``, ``int(torch.cuda.is_available())``, ``min(1, torch.cuda.device_count())``."""
    query = _cuda_query(ctx, node)
    if query == "device_count":
        return Facts(pure=True, no_str=True)
    if query == "is_available":
        return Facts(pure=True, options=(False, True), no_str=True)
    if query is not None:
        return _UNKNOWN_PURE
    if not isinstance(node.func, ast.Name) or node.keywords or _rebound(ctx, node.func.id, scopes):
        return None
    args = [_facts(ctx, arg, scopes, depth) for arg in node.args]
    if any(arg is None or not arg.pure for arg in args):
        return None
    if node.func.id == "int" and len(args) == 1 and args[0] is not None and args[0].options == (False, True):
        return Facts(pure=True, options=(0, 1), no_str=True)
    if node.func.id == "int" and len(node.args) == 1:
        return Facts(pure=True, no_str=True)  # ReAgent's gpus=int(use_gpu): an int, whatever it was given
    if node.func.id == "min" and len(node.args) == 2:
        counts = [_cuda_query(ctx, arg) == "device_count" for arg in node.args]
        ones = [isinstance(arg, ast.Constant) and arg.value == 1 and type(arg.value) is int for arg in node.args]
        if (counts[0] and ones[1]) or (counts[1] and ones[0]):
            return Facts(pure=True, options=(0, 1), no_str=True)
    return None


def _cuda_query(ctx: FileContext, node: ast.expr) -> str | None:
    """``device_count`` for ``torch.cuda.device_count()`` (any ``torch.cuda`` function called without
    arguments), when the name in front is the ``torch`` module (or ``torch.cuda``) and nothing else."""
    if not (isinstance(node, ast.Call) and not node.args and not node.keywords):
        return None
    parts: list[str] = []
    func: ast.expr = node.func
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    return cuda_function(ctx, func.id, list(reversed(parts))) if isinstance(func, ast.Name) else None


def cuda_function(ctx: FileContext, root: str, attrs: list[str]) -> str | None:
    """``synchronize`` for ``torch.cuda.synchronize`` spelled ``root.attrs...``, when ``root`` is imported as the
    ``torch`` module (or ``torch.cuda``) and nothing else; None otherwise."""
    path = [*_torch_aliases(ctx).get(root, ("",)), *attrs]
    return path[2] if len(path) == 3 and path[:2] == ["torch", "cuda"] else None


def _torch_aliases(ctx: FileContext) -> dict[str, tuple[str, ...]]:
    """Local names the module binds to ``torch`` or ``torch.cuda`` by imports only (``import torch as th``)."""
    cached: dict[str, tuple[str, ...]] | None = ctx.__dict__.get("_torch_aliases")  # one file, one answer
    if cached is not None:
        return cached
    found: dict[str, list[tuple[str, ...]]] = {}
    for statement in ctx.analysis.statements:
        node = statement.node
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in ("torch", "torch.cuda"):
                    path = tuple(alias.name.split(".")) if alias.asname else ("torch",)
                    found.setdefault(alias.asname or "torch", []).append(path)
        elif isinstance(node, ast.ImportFrom) and node.module == "torch" and node.level == 0:
            for alias in node.names:
                if alias.name == "cuda":
                    found.setdefault(alias.asname or "cuda", []).append(("torch", "cuda"))
    aliases = {}
    for name, paths in found.items():
        kinds = list(_other_bindings(ctx, name, everywhere=True))
        if len(set(paths)) == 1 and kinds == ["import"] * len(paths):
            aliases[name] = paths[0]
    ctx.__dict__["_torch_aliases"] = aliases
    return aliases


def _test_parts(node: ast.expr) -> list[ast.expr] | None:
    """The operands of a comparison, an ``and`` or a ``not``; None for anything else."""
    if isinstance(node, ast.Compare):
        return [node.left, *node.comparators]
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        return list(node.values)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return [node.operand]
    return None


def _is_path(node: ast.expr) -> bool:
    """``a.b.c``, ``cfg["trainer"]["gpus"]``, ``self.hparams.gpus``: a name with attributes and constant keys."""
    while isinstance(node, ast.Attribute | ast.Subscript):
        if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Constant):
            return False
        node = node.value
    return isinstance(node, ast.Name)


def _unique(options: tuple[Any, ...] | None) -> tuple[Any, ...] | None:
    if options is None:
        return None
    out: list[Any] = []
    for option in options:
        if not any(type(option) is type(seen) and option == seen for seen in out):
            out.append(option)
    return tuple(out)


# --- bindings ----------------------------------------------------------------------------------------------
def _rebound(ctx: FileContext, name: str, scopes: list[Scope]) -> bool:
    """Whether a builtin's name (``int``, ``min``) may be bound by the code where it is used."""
    return name in ctx.analysis.expression_bound or any(
        name in scope.bound or name in scope.imports or scope.stars for scope in scopes
    )


def _bound_once(ctx: FileContext, name: str, scopes: list[Scope]) -> tuple[ast.expr, int] | None:
    """The value of the one ``name = value`` that binds ``name`` in the function or the module the use sees it
    in, and the index of that scope in ``scopes``."""
    index = next(
        (
            i
            for i in range(len(scopes) - 1, -1, -1)
            if (scopes[i].kind != "class" or i == len(scopes) - 1)
            and (name in scopes[i].bound or name in scopes[i].imports)
        ),
        None,
    )
    if index is None or index not in (0, len(scopes) - 1):
        return None  # a closure's variable, or nothing binds it: not followed
    scope = scopes[index]
    values = assigned_values(name, [scope])
    if values is None or len(values) != 1 or name in scope.imports or scope.stars:
        return None
    kinds = list(_other_bindings(ctx, name, scope=scope))
    return (values[0], index) if kinds == ["assign"] else None


def _scope_body(ctx: FileContext, scope: Scope) -> list[ast.stmt]:
    if scope is ctx.analysis.module:
        return [s.node for s in ctx.analysis.statements if s.depth == 0]
    for statement in ctx.analysis.statements:
        if statement.scope is scope:
            body: list[ast.stmt] = getattr(statement.node, "body", [])
            return body
    return []


def _other_bindings(ctx: FileContext, name: str, scope: Scope | None = None, everywhere: bool = False) -> Iterator[str]:
    """Every way the body of ``scope`` (or, ``everywhere``, the whole module) binds ``name``: "assign" for a
    plain ``name = value``, another word for anything else; a nested ``global``/``nonlocal`` of it too."""
    if everywhere and not ctx.analysis.walrus_or_match:
        yield from _statement_bindings(ctx, name)
        return
    module_level = everywhere or scope is None or scope is ctx.analysis.module
    body = _scope_body(ctx, ctx.analysis.module if module_level or scope is None else scope)
    pending: list[tuple[ast.AST, bool]] = [(node, True) for node in body]
    while pending:
        node, own = pending.pop()
        if isinstance(node, ast.Global | ast.Nonlocal) and name in node.names:
            if own or isinstance(node, ast.Nonlocal) or module_level:
                yield "declared"
            continue
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            if own and not isinstance(node, ast.Lambda) and node.name == name:
                yield "def"
            # a nested body is another scope: only its global/nonlocal declarations (and walruses in a
            # comprehension, which bind here) matter
            inner = own and everywhere
            pending.extend((child, inner) for child in ast.iter_child_nodes(node))
            continue
        if own:
            yield from _binds(node, name)
        pending.extend((child, own) for child in ast.iter_child_nodes(node))


def _statement_bindings(ctx: FileContext, name: str) -> Iterator[str]:
    """The whole module's bindings of ``name`` (as the walk above yields them, in another order) from the
    statements the analysis already lists: only an expression (a walrus, a ``case`` capture) binds otherwise."""
    for statement in ctx.analysis.statements:
        node = statement.node
        if isinstance(node, ast.Global | ast.Nonlocal):
            if name in node.names:
                yield "declared"
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if node.name == name:
                yield "def"
        else:
            yield from _binds(node, name)
            for part in (*getattr(node, "items", ()), *getattr(node, "handlers", ())):
                yield from _binds(part, name)


def _binds(node: ast.AST, name: str) -> Iterator[str]:
    if isinstance(node, ast.Assign):
        for target in node.targets:
            if isinstance(target, ast.Name) and target.id == name:
                yield "assign"
            elif name in _names(target):
                yield "unpack"
    elif isinstance(node, ast.AugAssign | ast.AnnAssign | ast.For | ast.AsyncFor) and name in _names(node.target):
        yield type(node).__name__
    elif isinstance(node, ast.withitem) and node.optional_vars is not None and name in _names(node.optional_vars):
        yield "with"
    elif isinstance(node, ast.ExceptHandler) and node.name == name:
        yield "except"
    elif isinstance(node, ast.Import | ast.ImportFrom):
        if any((alias.asname or alias.name.split(".", 1)[0]) == name for alias in node.names):
            yield "import"
    elif isinstance(node, ast.Delete) and any(name in _names(target) for target in node.targets):
        yield "del"
    elif isinstance(node, ast.NamedExpr) and name in _names(node.target):
        yield "walrus"
    elif (isinstance(node, ast.MatchAs | ast.MatchStar) and node.name == name) or (
        isinstance(node, ast.MatchMapping) and node.rest == name
    ):
        yield "match"


def _names(target: ast.AST) -> set[str]:
    if isinstance(target, ast.Name):
        return {target.id}
    if isinstance(target, ast.Tuple | ast.List):
        return {n for element in target.elts for n in _names(element)}
    if isinstance(target, ast.Starred):
        return _names(target.value)
    return set()


def int_options(tree: ast.Module) -> frozenset[str]:
    """The ``dest`` of each argparse option that every ``add_argument`` of the file declares with ``type=int``
    (``parser.add_argument("--gpus", type=int, default=None)``): ``args.gpus`` holds an int, a list of ints
    (``nargs``) or a default that is no string (argparse converts a string default with ``type``)."""
    found: dict[str, bool] = {}
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument"
        ):
            continue
        flags = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        keywords = {k.arg: k.value for k in node.keywords if k.arg is not None}
        long = [flag for flag in flags if flag.startswith("--")] or flags
        dest = keywords.get("dest")
        name = dest.value if isinstance(dest, ast.Constant) else long[0].lstrip("-").replace("-", "_") if long else None
        if not isinstance(name, str):
            continue
        kind = keywords.get("type")
        default = keywords.get("default")
        typed = isinstance(kind, ast.Name) and kind.id == "int" and "action" not in keywords
        plain = default is None or (
            isinstance(default, ast.Constant) and (default.value is None or type(default.value) in (int, str))
        )
        found[name] = found.get(name, True) and typed and plain
    return frozenset(name for name, every in found.items() if every)


#: The callbacks a 1.5 callbacks list held by class name: Lightning's (none is a progress bar) and any ``*Callback``.
_CALLBACKS = re.compile(
    r"(?:Callback|ModelCheckpoint|EarlyStopping|LearningRateMonitor|GPUStatsMonitor|DeviceStatsMonitor|Timer"
    r"|StochasticWeightAveraging|ModelSummary|RichModelSummary|BackboneFinetuning|GradientAccumulationScheduler"
    r"|ModelPruning|QuantizationAwareTraining|XLAStatsMonitor)$"
)


def callback_list(ctx: FileContext, name: str) -> str | None:
    """``callbacks = [ModelCheckpoint(...)]`` bound once in the scope the use sees (rasbt's notebooks, then
    ``Trainer(callbacks=callbacks, progress_bar_refresh_rate=50)``): every item a callback that is no progress bar,
    and the name used nowhere else in the file but as a ``callbacks=`` argument (no ``append``, no ``+=``, never
    handed to code that could add one). A callback 1.5 built from a removed argument may then join its items
    (``[*callbacks, TQDMProgressBar(refresh_rate=50)]``). The list's source where it is such a list, else None."""
    # (asked for every name a flag is given: the scope's own record first, then the walk that proves one binding)
    if not any(isinstance(value, ast.List) for value in assigned_values(name, ctx.scopes) or ()):
        return None
    bound = _bound_once(ctx, name, ctx.scopes)
    if bound is None or not isinstance(bound[0], ast.List) or not bound[0].elts:
        return None
    ours = {cls for cls, base in ctx.options.hook_classes if base == "Callback"}
    for element in bound[0].elts:
        callee = element.func if isinstance(element, ast.Call) else None
        last = callee.attr if isinstance(callee, ast.Attribute) else callee.id if isinstance(callee, ast.Name) else ""
        if "ProgressBar" in last or not (_CALLBACKS.search(last) or last in ours):
            return None
    return None if _used_otherwise(ctx, name) else ast.unparse(bound[0])


def _used_otherwise(ctx: FileContext, name: str) -> bool:
    passed: set[int] = set()
    loads: list[ast.Name] = []
    for statement in ctx.analysis.statements:
        if statement.depth != 0:
            continue
        for node in ast.walk(statement.node):
            if isinstance(node, ast.keyword) and node.arg == "callbacks" and isinstance(node.value, ast.Name):
                passed.add(id(node.value))
            elif isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load):
                loads.append(node)
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
                return True
    return any(id(load) not in passed for load in loads)
