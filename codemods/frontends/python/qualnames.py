"""Qualified names from a module's own imports: the cheap replacement for libcst's scope analysis.

Rules match names by qualified name (``import pytorch_lightning as pl; pl.plugins.DDPPlugin`` and ``from
pytorch_lightning.plugins import DDPPlugin as P`` are the same class). libcst's ``QualifiedNameProvider``
answers that through a full ``ScopeProvider`` analysis, which costs more than parsing the file. Here the
qualified names are computed from the import statements alone, found in one walk over the statements of the
module's ``ast`` (expressions are never visited), together with every other way a scope binds a name.

The scope check is deliberately conservative: a name is resolved only when its innermost binding scope
binds it by exactly one import from a tracked root and by nothing else. A module-level ``class DDPPlugin``,
a ``def``, an assignment or ``for`` target, a parameter or local assignment in the enclosing function, a
``global``/``nonlocal`` declaration, a later star import from elsewhere, a walrus, comprehension or lambda
variable of that name: any of them and the name is not legacy (when in doubt, do not rewrite).
"""

from __future__ import annotations

import ast
import functools
import importlib
import re
import sys
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Literal

from legacy_api.ecosystem import ROOTS as ECOSYSTEM_ROOTS
from legacy_api.renames import COMPAT, PL

#: Roots whose imports are tracked: the legacy ones, newcore (its strategies count in ``plugins=``) and the
#: packages that ship a Trainer subclass (``flash.Trainer`` takes Lightning's flags).
TRACKED: tuple[str, ...] = (PL, COMPAT, "newcore", *ECOSYSTEM_ROOTS)
LEGACY: tuple[str, ...] = (PL, COMPAT)
#: The qualified names of Lightning's Trainer (and compat's look-alikes) -> the root each belongs to.
TRAINERS = {
    f"{PL}.Trainer": PL,
    f"{PL}.trainer.Trainer": PL,
    f"{PL}.trainer.trainer.Trainer": PL,
    f"{COMPAT}.Runner": COMPAT,
    f"{COMPAT}.AcceleratorConnector": COMPAT,
    f"{COMPAT}.Trainer": COMPAT,
}

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
#: Where names may be bound inside expressions, which the statement walk does not see: a cheap text test that
#: decides only whether the expressions are walked (it also matches docstrings and comments).
_EXPRESSION_BINDERS = re.compile(r"\bfor\s+([\w\s,()\[\]*]+?)\s+in\b|\blambda\b([^:\n]*):|\b(\w+)\s*:=")


#: Given the (sorted) qualified names one local name is imported as, the one to use, or None if they differ.
Merge = Callable[[tuple[str, ...]], "str | None"]


_STDLIB = frozenset(sys.stdlib_module_names)
#: Standard library modules that do something when imported (or drag a GUI in): never imported here.
_SIDE_EFFECTS = frozenset({"antigravity", "this", "idlelib", "tkinter", "turtle", "turtledemo", "__main__"})


@functools.lru_cache(maxsize=256)
def _star_names(module: str) -> frozenset[str] | None:
    try:
        imported = importlib.import_module(module)
    except (Exception, SystemExit):  # any failure: the star import may bind anything
        return None
    names = getattr(imported, "__all__", None)
    if names is None:
        names = [name for name in dir(imported) if not name.startswith("_")]
    return frozenset(str(name) for name in names)


def stdlib_exports(module: str, name: str) -> bool:
    """Whether ``from <module> import *`` (a standard library module) may bind ``name``."""
    names = _star_names(module)
    return names is None or name in names


def _root(module: str) -> str:
    return module.split(".", 1)[0]


@dataclass
class Scope:
    """The names one module, class or function body binds."""

    kind: Literal["module", "class", "function"]
    #: local name -> qualified names it is imported as, from a tracked root.
    imports: dict[str, set[str]] = field(default_factory=dict)
    #: local name -> line of its (last) tracked import, to order it against star imports.
    import_lines: dict[str, int] = field(default_factory=dict)
    #: Names bound any other way.
    bound: set[str] = field(default_factory=set)
    #: Lines of star imports from untracked modules (they may rebind anything).
    stars: list[int] = field(default_factory=list)
    #: Star imports from the standard library: (line, module); they rebind only the names the module exports.
    stdlib_stars: list[tuple[int, str]] = field(default_factory=list)
    #: A function's parameters (also in ``bound``), and those of them the body assigns again.
    params: frozenset[str] = frozenset()
    rebound: frozenset[str] = frozenset()
    #: name -> the values plain assignments (``name = value``) give it here.
    values: dict[str, list[ast.expr]] = field(default_factory=dict)

    def lookup(self, name: str, merge: Merge | None = None) -> str | Literal[False] | None:
        """The qualified name, None when bound here but not (unambiguously) by an import, False if unbound.

        A name imported from several paths (``try: from a import X`` / ``except ImportError: from b import X``)
        is ambiguous, unless ``merge`` says every path names the same thing: then it is ``merge``'s choice.
        """
        if name in self.imports:
            qualified = self.imports[name]
            line = self.import_lines[name]
            if name in self.bound or any(star > line for star in self.stars):
                return None
            if any(star > line and stdlib_exports(module, name) for star, module in self.stdlib_stars):
                return None
            if len(qualified) == 1:
                return next(iter(qualified))
            return merge(tuple(sorted(qualified))) if merge is not None else None
        return None if name in self.bound else False


@dataclass(frozen=True)
class Statement:
    """One ``ast`` statement, in source (pre-)order: its lines, its column and how many statements it spans."""

    node: ast.stmt
    start: int
    end: int
    column: int
    #: This statement plus every statement nested in it.
    size: int
    #: The scope a ``def``/``class`` opens for its body.
    scope: Scope | None
    depth: int


@dataclass
class Analysis:
    """Statements of a module in pre-order, with the scopes they open and the module scope."""

    statements: list[Statement]
    module: Scope
    #: Names bound by a tracked import anywhere in the module (the text prefilter's vocabulary).
    imported: set[str]
    #: Names bound inside expressions anywhere (walrus, comprehension, lambda): never resolved.
    expression_bound: set[str]
    #: Lines of star imports from a legacy root: (line, module).
    legacy_stars: list[tuple[int, str]] = field(default_factory=list)
    #: Whether an expression may bind a module or function name (a walrus, a ``case`` capture): only then do the
    #: binding checks have to walk expressions rather than the statements.
    walrus_or_match: bool = True

    def resolve(self, name: str, scopes: list[Scope], merge: Merge | None = None) -> str | None:
        """Qualified name of the local ``name`` seen from the innermost of ``scopes`` (module first)."""
        if name in self.expression_bound:
            return None
        for index in range(len(scopes) - 1, -1, -1):
            scope = scopes[index]
            if scope.kind == "class" and index != len(scopes) - 1:
                continue  # a class body's names are not visible inside its methods
            found = scope.lookup(name, merge)
            if found is not False:
                return found
        return None

    def binds_otherwise(self, name: str, qualified: str, leaves: Callable[[str], bool]) -> bool:
        """Whether some scope of the module binds ``name`` other than by importing ``qualified``: a rename that
        gives a use the local name ``name`` would then capture, or be captured by, that binding (a module's own
        ``class Logger`` next to ``LightningLoggerBase`` -> ``Logger``). An import the run itself renames away
        from ``name`` (``leaves``: 1.5's ``callbacks.ProgressBar`` becomes ``TQDMProgressBar``) does not count."""
        return name in self.expression_bound or any(
            name in scope.bound
            or any(other != qualified and not leaves(other) for other in scope.imports.get(name, ()))
            for scope in self.scopes
        )

    @functools.cached_property
    def scopes(self) -> list[Scope]:
        """Every scope of the module: the module's and those its ``def``/``class`` statements open."""
        return [self.module, *(statement.scope for statement in self.statements if statement.scope is not None)]


def is_parameter(name: str, scopes: list[Scope]) -> bool:
    """Whether ``name``, seen from the innermost of ``scopes``, is a parameter of the enclosing function (and
    bound by nothing else there)."""
    for index in range(len(scopes) - 1, -1, -1):
        scope = scopes[index]
        if scope.kind == "class" and index != len(scopes) - 1:
            continue
        if name in scope.params:
            return name not in scope.rebound and name not in scope.imports
        if name in scope.bound or name in scope.imports:
            return False
    return False


def assigned_values(name: str, scopes: list[Scope]) -> list[ast.expr] | None:
    """The values ``name = value`` gives ``name`` in the innermost of ``scopes`` that binds it; None when that
    scope binds it some other way too (a parameter, an import, a loop...) or nothing binds it."""
    for index in range(len(scopes) - 1, -1, -1):
        scope = scopes[index]
        if scope.kind == "class" and index != len(scopes) - 1:
            continue
        if name in scope.bound or name in scope.imports:
            values = scope.values.get(name)
            if not values or name in scope.params or name in scope.imports:
                return None
            return values
    return None


def _targets(node: ast.AST | None) -> list[str]:
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Tuple | ast.List):
        return [name for element in node.elts for name in _targets(element)]
    if isinstance(node, ast.Starred):
        return _targets(node.value)
    return []


def _bind(node: ast.stmt, scope: Scope, module: Scope, analysis: Analysis) -> None:
    """Record the names ``node`` binds in ``scope``."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            local = alias.asname or _root(alias.name)
            qualified = alias.name if alias.asname else _root(alias.name)
            _import(scope, local, qualified, node.lineno, analysis)
    elif isinstance(node, ast.ImportFrom):
        module_name = node.module or ""
        tracked = node.level == 0 and _root(module_name) in TRACKED
        for alias in node.names:
            if alias.name == "*":
                if tracked:
                    if _root(module_name) in LEGACY:
                        analysis.legacy_stars.append((node.lineno, module_name))
                elif node.level == 0 and _root(module_name) in _STDLIB and _root(module_name) not in _SIDE_EFFECTS:
                    scope.stdlib_stars.append((node.lineno, module_name))  # ``from typing import *``
                else:
                    scope.stars.append(node.lineno)
            elif tracked:
                _import(scope, alias.asname or alias.name, f"{module_name}.{alias.name}", node.lineno, analysis)
            else:
                scope.bound.add(alias.asname or alias.name)
    elif isinstance(node, (*_FUNCTIONS, ast.ClassDef)):
        scope.bound.add(node.name)
    elif isinstance(node, ast.Assign):
        scope.bound.update(name for target in node.targets for name in _targets(target))
        for target in node.targets:
            if isinstance(target, ast.Name):
                scope.values.setdefault(target.id, []).append(node.value)
    elif isinstance(node, ast.AugAssign | ast.AnnAssign | ast.For | ast.AsyncFor):
        scope.bound.update(_targets(node.target))
    elif isinstance(node, ast.With | ast.AsyncWith):
        scope.bound.update(name for item in node.items for name in _targets(item.optional_vars))
    elif isinstance(node, ast.Delete):
        scope.bound.update(name for target in node.targets for name in _targets(target))
    elif isinstance(node, ast.Global | ast.Nonlocal):
        scope.bound.update(node.names)
        module.bound.update(node.names)  # assigned from somewhere else: the module-level name is in doubt
    elif isinstance(node, ast.Try) or type(node).__name__ == "TryStar":
        scope.bound.update(handler.name for handler in node.handlers if handler.name)  # type: ignore[attr-defined]


def _import(scope: Scope, local: str, qualified: str, line: int, analysis: Analysis) -> None:
    if _root(qualified) in TRACKED:
        scope.imports.setdefault(local, set()).add(qualified)
        scope.import_lines[local] = line
        if _root(qualified) in LEGACY:
            analysis.imported.add(local)
    else:
        scope.bound.add(local)


def parameters(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> set[str]:
    """Every parameter name of a ``def`` or ``lambda``."""
    args = node.args
    names = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
    names.update(a.arg for a in (args.vararg, args.kwarg) if a is not None)
    return names


def _walk(body: list[ast.stmt], scope: Scope, depth: int, analysis: Analysis) -> None:
    out = analysis.statements
    for node in body:
        index = len(out)
        out.append(None)  # type: ignore[arg-type]  # filled in once the nested statements are counted
        _bind(node, scope, analysis.module, analysis)
        opened: Scope | None = None
        if isinstance(node, _FUNCTIONS):
            params = frozenset(parameters(node))
            opened = Scope("function", params=params)
            _walk(node.body, opened, depth + 1, analysis)
            opened.rebound = frozenset(opened.bound & params)
            opened.bound |= params
        elif isinstance(node, ast.ClassDef):
            opened = Scope("class")
            _walk(node.body, opened, depth + 1, analysis)
        else:
            # Nested statements in the order libcst visits them: body, handlers, orelse, finalbody; cases.
            _walk(getattr(node, "body", []), scope, depth + 1, analysis)
            for handler in getattr(node, "handlers", []):
                _walk(handler.body, scope, depth + 1, analysis)
            for case in getattr(node, "cases", []):
                _walk(case.body, scope, depth + 1, analysis)
            _walk(getattr(node, "orelse", []), scope, depth + 1, analysis)
            _walk(getattr(node, "finalbody", []), scope, depth + 1, analysis)
        decorators = getattr(node, "decorator_list", [])
        start = min([node.lineno, *(d.lineno for d in decorators)])
        end = node.end_lineno or node.lineno
        out[index] = Statement(node, start, end, node.col_offset, len(out) - index, opened, depth)


def _expression_binders(nodes: Iterable[ast.AST]) -> set[str]:
    """Names bound inside expressions: comprehension and lambda variables, walrus targets, ``case`` captures."""
    names: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.comprehension):
            names.update(_targets(node.target))
        elif isinstance(node, ast.Lambda):
            args = node.args
            names.update(a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs))
            names.update(a.arg for a in (args.vararg, args.kwarg) if a is not None)
        elif isinstance(node, ast.NamedExpr):
            names.update(_targets(node.target))
        elif isinstance(node, ast.MatchAs | ast.MatchStar) and node.name:
            names.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            names.add(node.rest)
    return names


def _naming(tree: ast.Module, source: str, analysis: Analysis) -> Iterator[ast.AST]:
    """The nodes of ``tree`` that may bind one of ``analysis.imported`` inside an expression: those of the statements
    whose lines spell one of these names (not those of the statements nested in them), or all of them.

    A binding spells its name where it stands, so a statement none of whose lines does binds it nowhere. Only in
    ASCII text with ``\\n`` line breaks, though: an identifier is compared after NFKC normalisation (its spelling
    may differ), and ``ast`` also counts a lone ``\\r`` as a line break.
    """
    from codemods.project.prefilter import matching_lines, word_pattern

    if not source.isascii() or ("\r" in source and "\r" in source.replace("\r\n", "")):
        yield from ast.walk(tree)
        return
    lines = matching_lines(source, word_pattern(frozenset(analysis.imported), frozenset(), frozenset()))
    for statement in analysis.statements:
        index = bisect_left(lines, statement.start)
        if index == len(lines) or lines[index] > statement.end:
            continue
        stack: list[ast.AST] = [statement.node]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(child for child in ast.iter_child_nodes(node) if not isinstance(child, ast.stmt))


def analyse(tree: ast.Module, source: str) -> Analysis:
    """Walk the statements of ``tree`` (parsed from ``source``) once."""
    analysis = Analysis([], Scope("module"), set(), set())
    _walk(tree.body, analysis.module, 0, analysis)
    matches = any(isinstance(statement.node, ast.Match) for statement in analysis.statements)
    analysis.walrus_or_match = matches or ":=" in source
    if analysis.imported:
        # The text is only a cheap "maybe": it also matches docstrings and comments ("for the Trainer in ..."),
        # and a text match must never decide anything. When it (or a ``lambda``, whose parameters may span
        # lines) names a legacy import, the tree says which names really are bound inside expressions.
        candidates: set[str] = set()
        for match in _EXPRESSION_BINDERS.finditer(source):
            text = " ".join(group for group in match.groups() if group)
            candidates.update(re.findall(r"[A-Za-z_]\w*", text))
        if candidates & analysis.imported or "lambda" in source or matches:
            analysis.expression_bound = _expression_binders(_naming(tree, source, analysis)) & analysis.imported
    return analysis
