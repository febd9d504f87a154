"""Apply the enabled rules to one Python source string in a single libcst pass.

``transform_python`` never raises for bad input: a file that does not parse (or whose rewrite would not
parse) comes back unchanged with ``error`` set.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import AddImportsVisitor, RemoveImportsVisitor
from libcst.metadata import MetadataWrapper, PositionProvider, QualifiedNameProvider

from codemods.names import ROOTS
from codemods.renames import DEFAULT_TARGET, version_tuple

TODO_PREFIX = "# TODO(migrate-trainer): "
FindingKind = Literal["fix", "todo", "report"]
Handler = Callable[[Any, Any, Any], Any]


@dataclass(frozen=True)
class Finding:
    """Something a rule found: ``fix`` rewrote code, ``todo`` left a comment, ``report`` only informs."""

    rule: str
    message: str
    line: int
    column: int
    kind: FindingKind = "fix"


@dataclass(frozen=True)
class Options:
    """What to apply. ``rules`` is the set of enabled rule ids (None: every rule)."""

    target: str = DEFAULT_TARGET
    rules: frozenset[str] | None = None
    #: Project classes that subclass a strategy plugin (found by a project-wide scan).
    local_strategies: frozenset[str] = frozenset()

    @property
    def target_tuple(self) -> tuple[int, ...]:
        return version_tuple(self.target)

    def enabled(self, rule: str) -> bool:
        return self.rules is None or rule in self.rules


@dataclass(frozen=True)
class Outcome:
    """The result for one source: ``source`` is the (possibly) rewritten text."""

    source: str
    changed: bool
    findings: tuple[Finding, ...] = ()
    error: str | None = None
    parsed: bool = True


@dataclass
class _Pending:
    rule: str
    message: str
    node: cst.CSTNode
    kind: FindingKind


@dataclass
class FileContext:
    """State shared by the rules while one file is transformed."""

    options: Options
    codemod: CodemodContext
    handlers: dict[str, list[Handler]]
    visitors: dict[str, list[Handler]]
    transformer: Any = None
    statements: list[cst.CSTNode] = field(default_factory=list)
    todos: dict[int, list[str]] = field(default_factory=dict)
    pending: list[_Pending] = field(default_factory=list)
    in_import: int = 0
    #: Local names bound by imports from a legacy root (``pl``, ``DDPPlugin``, ``P``): the QN lookup gate.
    legacy_locals: set[str] = field(default_factory=set)
    #: Names of dicts that are splatted into a Trainer call somewhere in the file.
    trainer_dicts: frozenset[str] = frozenset()
    #: Variables assigned from a Trainer call.
    trainer_vars: set[str] = field(default_factory=set)
    #: ids of nodes a visit hook marked as already handled by an enclosing node.
    claimed: set[int] = field(default_factory=set)

    @property
    def target(self) -> tuple[int, ...]:
        return self.options.target_tuple

    def enabled(self, rule: str) -> bool:
        return self.options.enabled(rule)

    def applies(self, rule: str, deprecated_in: str) -> bool:
        return self.enabled(rule) and version_tuple(deprecated_in) <= self.target

    def qualified_names(self, node: cst.CSTNode) -> set[str]:
        names = self.transformer.get_metadata(QualifiedNameProvider, node, set())
        return {qn.name for qn in names}

    def legacy_names(self, node: cst.CSTNode) -> list[str]:
        """Qualified names of ``node`` under a legacy root, cheaply gated on the node's base name."""
        base = node
        while isinstance(base, cst.Attribute):
            base = base.value
        if not isinstance(base, cst.Name) or base.value not in self.legacy_locals:
            return []
        return sorted(name for name in self.qualified_names(node) if name.split(".", 1)[0] in ROOTS)

    def code(self, node: cst.CSTNode) -> str:
        return str(cst.Module(body=[]).code_for_node(node))

    # --- findings --------------------------------------------------------------------------------------------
    def fix(self, rule: str, message: str, node: cst.CSTNode) -> None:
        self.pending.append(_Pending(rule, message, node, "fix"))

    def report(self, rule: str, message: str, node: cst.CSTNode) -> None:
        self.pending.append(_Pending(rule, message, node, "report"))

    def todo(self, rule: str, message: str, node: cst.CSTNode) -> None:
        """Leave the code as it is, put a TODO comment above the enclosing statement and report it."""
        self.pending.append(_Pending(rule, message, node, "todo"))
        if self.statements:
            texts = self.todos.setdefault(id(self.statements[-1]), [])
            text = f"{TODO_PREFIX}{message} [{rule}]"
            if text not in texts:
                texts.append(text)

    # --- imports, through libcst's visitors ------------------------------------------------------------------
    def add_import(self, module: str, obj: str | None = None, asname: str | None = None) -> None:
        AddImportsVisitor.add_needed_import(self.codemod, module, obj, asname)

    def remove_import(self, module: str, obj: str | None = None, asname: str | None = None) -> None:
        RemoveImportsVisitor.remove_unused_import(self.codemod, module, obj, asname)

    def remove_imports_of(self, node: cst.CSTNode) -> None:
        RemoveImportsVisitor.remove_unused_import_by_node(self.codemod, node)


_STATEMENTS = (cst.SimpleStatementLine, cst.BaseCompoundStatement)


def _with_todos(node: Any, texts: Sequence[str]) -> Any:
    if not isinstance(node, _STATEMENTS):
        return node
    present = {line.comment.value for line in node.leading_lines if line.comment is not None}
    missing = [text for text in texts if text not in present]
    if not missing:
        return node
    lines = [cst.EmptyLine(indent=True, comment=cst.Comment(text)) for text in missing]
    return node.with_changes(leading_lines=[*node.leading_lines, *lines])


class _Pass(cst.CSTTransformer):
    """Dispatches every node to the enabled rules' hooks: one traversal for all rules."""

    METADATA_DEPENDENCIES = (QualifiedNameProvider,)

    def __init__(self, ctx: FileContext) -> None:
        super().__init__()
        self.ctx = ctx
        ctx.transformer = self

    def on_visit(self, node: cst.CSTNode) -> bool:
        ctx = self.ctx
        if isinstance(node, _STATEMENTS):
            ctx.statements.append(node)
        elif isinstance(node, cst.Import | cst.ImportFrom):
            ctx.in_import += 1
            _record_legacy_locals(ctx, node)
        for visit in ctx.visitors.get(type(node).__name__, ()):
            visit(ctx, node, node)
        return True

    def on_leave(self, original_node: Any, updated_node: Any) -> Any:
        ctx = self.ctx
        kind = type(original_node)
        result = updated_node
        for handler in ctx.handlers.get(kind.__name__, ()):
            result = handler(ctx, original_node, result)
            if type(result) is not kind:  # replaced by another kind of node: other hooks no longer apply
                break
        if isinstance(original_node, _STATEMENTS):
            ctx.statements.pop()
            texts = ctx.todos.pop(id(original_node), None)
            if texts:
                if isinstance(result, cst.FlattenSentinel):
                    first, *rest = result.nodes
                    result = cst.FlattenSentinel([_with_todos(first, texts), *rest])
                else:
                    result = _with_todos(result, texts)
        elif isinstance(original_node, cst.Import | cst.ImportFrom):
            ctx.in_import -= 1
        return result


def _record_legacy_locals(ctx: FileContext, node: cst.Import | cst.ImportFrom) -> None:
    if isinstance(node, cst.Import):
        for alias in node.names:
            name = ctx.code(alias.name)
            if name.split(".", 1)[0] in ROOTS:
                ctx.legacy_locals.add(alias.evaluated_alias or name.split(".", 1)[0])
        return
    if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
        return
    if ctx.code(node.module).split(".", 1)[0] in ROOTS:
        for alias in node.names:
            ctx.legacy_locals.add(alias.evaluated_alias or alias.evaluated_name)


_TRAINER_CALLEES = ("Trainer", "Runner", "AcceleratorConnector", "from_argparse_args")


def _splatted_names(source: str) -> frozenset[str]:
    """Names passed as ``**name`` to a Trainer-like call: the dicts whose keys are Trainer flags."""
    if "**" not in source:
        return frozenset()
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return frozenset()
    names: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        callee = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if callee in _TRAINER_CALLEES:
            names.update(kw.value.id for kw in node.keywords if kw.arg is None and isinstance(kw.value, ast.Name))
    return frozenset(names)


def prefilter_tokens(options: Options) -> tuple[str, ...]:
    """Every token some enabled rule needs; a file without any of them is not parsed."""
    from codemods.rules import REGISTRY

    tokens: set[str] = set()
    for rule in REGISTRY.values():
        if options.enabled(rule.id) and (rule.version <= options.target_tuple or rule.id in _ANY_TARGET):
            tokens.update(rule.tokens)
    return tuple(sorted(tokens))


#: Rules that always matter for compat code, whatever the target (compat migrates to newcore's API).
_ANY_TARGET = frozenset({"device_flags", "amp_flags", "gpu_accelerator", "precision_plugins"})


def transform_python(source: str, options: Options, tokens: Sequence[str] | None = None) -> Outcome:
    """Rewrite ``source``; unchanged (and unparsed) when no token of an enabled rule occurs in it."""
    from codemods.rules import build_hooks

    if tokens is None:
        tokens = prefilter_tokens(options)
    if not any(token in source for token in tokens):
        return Outcome(source, changed=False, parsed=False)
    try:
        module = cst.parse_module(source)
    except (cst.ParserSyntaxError, RecursionError) as exc:
        return Outcome(source, changed=False, error=f"cannot parse: {_first_line(exc)}")
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    codemod = CodemodContext(wrapper=wrapper)
    handlers, visitors = build_hooks(options)
    ctx = FileContext(options, codemod, handlers, visitors, trainer_dicts=_splatted_names(source))
    try:
        new_module = wrapper.visit(_Pass(ctx))
        if AddImportsVisitor.CONTEXT_KEY in codemod.scratch:
            new_module = AddImportsVisitor(codemod).transform_module(new_module)
        if RemoveImportsVisitor.CONTEXT_KEY in codemod.scratch:
            new_module = RemoveImportsVisitor(codemod).transform_module(new_module)
        code = new_module.code
    except Exception as exc:  # a rule bug must not cost the user a file: report it, keep the input
        return Outcome(source, changed=False, error=f"internal error: {type(exc).__name__}: {_first_line(exc)}")
    changed = code != source
    if changed:
        try:
            compile(code, "<migrate-trainer>", "exec", flags=ast.PyCF_ONLY_AST, dont_inherit=True)
        except SyntaxError as exc:
            return Outcome(source, changed=False, error=f"rewrite would not parse ({exc.msg}); file left as it was")
    return Outcome(code if changed else source, changed, _findings(wrapper, ctx.pending))


def _findings(wrapper: MetadataWrapper, pending: list[_Pending]) -> tuple[Finding, ...]:
    if not pending:
        return ()
    positions = wrapper.resolve(PositionProvider)
    seen: set[tuple[str, str, int, int]] = set()
    out: list[Finding] = []
    for item in pending:
        where = positions.get(item.node)
        line, column = (where.start.line, where.start.column + 1) if where is not None else (1, 1)
        key = (item.rule, item.message, line, column)
        if key not in seen:
            seen.add(key)
            out.append(Finding(item.rule, item.message, line, column, item.kind))
    return tuple(sorted(out, key=lambda f: (f.line, f.column, f.rule, f.message)))


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


Transform = Callable[[str, Options], Outcome]
