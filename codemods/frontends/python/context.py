"""Apply the enabled rules to one Python source string in a single libcst pass over what can matter.

The cost model: a file without a legacy token (``codemods.project.prefilter``) is not parsed at all. Otherwise one
``ast`` parse (fast, in C) yields the statements, the scopes and the imports (``codemods.frontends.python.qualnames``);
only the top-level statements that mention a legacy name are parsed by libcst (``codemods.frontends.python.chunks``),
and inside them only the statements that do are visited (``codemods.frontends.python.traversal``). Names are matched by
qualified name, computed from the module's own imports. Imports are reconciled at the end
(``codemods.frontends.python.imports``).

``transform_python`` never raises for bad input: a file that does not parse (or whose rewrite would not
parse) comes back unchanged with ``error`` set.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from codemods.frontends.python.qualnames import LEGACY, TRAINERS, Analysis, Scope, Statement
from codemods.model import FindingKind, Options, one_line, todo_comment
from legacy_api.renames import version_tuple

if TYPE_CHECKING:
    from legacy_api.surface import Surface

Handler = Callable[[Any, Any, Any], Any]


@dataclass
class Pending:
    """A finding whose position is computed at the end, only if it survives."""

    rule: str
    message: str
    node: Any
    kind: FindingKind
    #: The innermost statement around ``node``, and that statement's line and column.
    anchor: tuple[Any, int, int] | None


@dataclass
class FileContext:
    """State shared by the rules while one file is transformed."""

    options: Options
    handlers: dict[str, list[Handler]]
    visitors: dict[str, list[Handler]]
    analysis: Analysis
    #: Scopes around the node being visited, module first.
    scopes: list[Scope] = field(default_factory=list)
    statements: list[Any] = field(default_factory=list)
    anchors: list[tuple[Any, int, int]] = field(default_factory=list)
    #: The flag rules' trial of a call (:func:`codemods.frontends.python.trial.flags_to_migrate`), set by the pipeline:
    #: the rules import this module, so it cannot import the loop that runs them.
    flag_trial: Callable[[FileContext, Any], list[str]] | None = None
    #: The plan of a class mirroring the Trainer (:func:`codemods.project.schema_plans.plan_schema`: its fields, the
    #: target), set by the pipeline for the same reason.
    schema_plan: Callable[[Sequence[tuple[str, str]], tuple[int, ...]], Any] | None = None
    todos: dict[int, list[str]] = field(default_factory=dict)
    pending: list[Pending] = field(default_factory=list)
    in_import: int = 0
    #: ids of ``Name`` nodes that label something (``x.attr``, ``f(kw=)``, ``def name``) rather than refer.
    labels: set[int] = field(default_factory=set)
    #: Names of dicts that are splatted into a Trainer call somewhere in the file.
    trainer_dicts: frozenset[str] = frozenset()
    #: Variables assigned from a Trainer call.
    trainer_vars: set[str] = field(default_factory=set)
    #: ``codemods.frontends.python.dict_uses``: what each scope does with the keys of a Trainer dict (id of the scope ->
    #: name -> facts), and the ``pass`` placeholders of the ``d["gpus"] = 0`` stores it removes (id -> node).
    dict_facts: dict[int, dict[str, Any]] = field(default_factory=dict)
    removed_stores: dict[int, Any] = field(default_factory=dict)
    #: ids of nodes a visit hook marked as already handled by an enclosing node.
    claimed: set[int] = field(default_factory=set)
    #: ids of expressions where None and 0 come to the same (``if cfg.trainer.get("gpus"):``;
    #: ``codemods.rules._zero_safe``).
    zero_safe: set[int] = field(default_factory=set)
    #: ids of the callees of the calls being visited, and of those renamed with preset keyword arguments (-> them).
    callees: set[int] = field(default_factory=set)
    presets: dict[int, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    #: The imports of classes renamed with preset arguments, by qualified name: a use left with a TODO reports its
    #: import (which then fails at the target) once, and drops it from here.
    preset_imports: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    #: ids of ``trainer.root_gpu`` nodes passed as a ``torch.cuda`` function's device (rule ``trainer_properties``).
    cuda_devices: set[int] = field(default_factory=set)
    #: ``codemods.frontends.python.device_count``: each line of a 1.5 device-count idiom -> the idiom
    #: (``trainer_properties``).
    device_counts: dict[int, Any] = field(default_factory=dict)
    #: ``codemods.frontends.python.fit_moves``: line of a Trainer assignment whose ``resume_from_checkpoint`` can move
    #: -> line of its one ``fit``; and, once moved, the ``fit`` line -> the keyword arguments it takes (name, value).
    fit_moves: dict[int, int] = field(default_factory=dict)
    fit_arguments: dict[int, list[tuple[str, Any]]] = field(default_factory=dict)
    #: ``codemods.frontends.python.bindings.int_options``: the argparse options of the file that hold an int (or None).
    int_options: frozenset[str] = frozenset()
    #: The file has its TODO for a removed argparse helper (``argparse_flags``): the others are reported.
    argparse_todo: bool = False
    #: ids of import lines inside a block -> the import lines to add right below them (``_rename``).
    split_imports: dict[int, list[Any]] = field(default_factory=dict)
    #: The TODO an import of a removed name got (its comment, its finding), by the name it binds: it goes where the
    #: name does (``codemods.frontends.python.imports.remove_unused``), when a rule rewrote its last use away.
    import_todos: dict[str, tuple[str, Pending]] = field(default_factory=dict)
    additions: list[tuple[str, str | None, str | None]] = field(default_factory=list)
    removals: list[Any] = field(default_factory=list)
    _assigned: frozenset[str] | None = None
    #: What the rules' screens found once for the file, by (rule, id of an ``ast`` node): a class's own names.
    screened: dict[tuple[str, int], Any] = field(default_factory=dict)

    def assigned_names(self) -> frozenset[str]:
        """Every name some scope of the module assigns (``name = value``): the names that may become Trainers."""
        if self._assigned is None:
            scopes = [self.analysis.module, *(s.scope for s in self.analysis.statements if s.scope is not None)]
            self._assigned = frozenset(name for scope in scopes for name in scope.values)
        return self._assigned

    @property
    def target(self) -> tuple[int, ...]:
        return self.options.target_tuple

    def enabled(self, rule: str) -> bool:
        return self.options.enabled(rule)

    @property
    def untuned(self) -> bool:
        """Nothing in the project runs ``Trainer.tune()`` (:attr:`codemods.plan.model.Plan.untuned`)."""
        from codemods.project.keys import never_tunes

        return never_tunes(self.options.project)

    @functools.cached_property
    def surface(self) -> Surface:
        """The API surface of the target release, recorded from the real package (``legacy_api.surface``); found once
        a file (the rules ask for it at almost every node they look at)."""
        from legacy_api.surface import release_for, surface

        return surface(release_for(".".join(map(str, self.target[:2]))))

    def applies(self, rule: str, deprecated_in: str) -> bool:
        return self.enabled(rule) and version_tuple(deprecated_in) <= self.target

    # --- names -----------------------------------------------------------------------------------------------
    def qualified_name(self, node: Any) -> str | None:
        """``pl.plugins.DDPPlugin`` -> ``pytorch_lightning.plugins.DDPPlugin``, from the imports in scope."""
        import libcst as cst

        parts: list[str] = []
        while isinstance(node, cst.Attribute):
            parts.append(node.attr.value)
            node = node.value
        if not isinstance(node, cst.Name) or id(node) in self.labels:
            return None
        base = self.resolve(node.value)
        if base is None:
            return None
        return ".".join([base, *reversed(parts)])

    def qualified_ast(self, node: ast.expr) -> str | None:
        """:meth:`qualified_name` of an ``ast`` name or attribute chain (``call.func`` of a value read in ``ast``)."""
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        base = self.resolve(node.id) if isinstance(node, ast.Name) else None
        return None if base is None else ".".join([base, *reversed(parts)])

    def resolve(self, local: str) -> str | None:
        """The qualified name the local name ``local`` is imported as, in the scopes around the visited node."""
        return self.analysis.resolve(local, self.scopes, self.same_thing)

    def name_taken(self, local: str, qualified: str) -> bool:
        """Whether renaming a use to the local name ``local`` (importing ``qualified``) would collide with another
        binding of that name in the module: the import then keeps the old local name (``import ... as Old``)."""
        from codemods.plan.resolve import resolve

        def leaves(other: str) -> bool:
            moved = resolve(other, self.target)
            return (
                moved is not None
                and self.enabled(moved.rule)
                and moved.new is not None
                and moved.new.rpartition(".")[2] != local
            )

        return self.analysis.binds_otherwise(local, qualified, leaves)

    def same_thing(self, candidates: tuple[str, ...]) -> str | None:
        """One of ``candidates`` (qualified names one local name is imported as) when they all name the same
        thing: the same final replacement, and the same local name at this target. None when in doubt."""
        from codemods.plan.resolve import resolve

        finals: set[str | None] = set()
        here: set[str | None] = set()
        for name in candidates:
            final = resolve(name, (99,))
            finals.add(f"Trainer of {TRAINERS[name]}" if name in TRAINERS else final.new if final else name)
            now = resolve(name, self.target)
            here.add(name.rpartition(".")[2] if now is None else now.new.rpartition(".")[2] if now.new else None)
        if len(finals) == 1 and len(here) == 1 and None not in finals | here:
            return candidates[0]
        return None

    def trainer_class(self, node: Any) -> str | None:
        """What the callee ``node`` names when it is a Trainer class besides Lightning's own: an ecosystem one's
        qualified name (``flash.Trainer``) or a project subclass's name (``MyTrainer``); None otherwise."""
        import libcst as cst

        from legacy_api.ecosystem import BY_NAME

        name = self.qualified_name(node)
        if name is not None:
            return name if name in BY_NAME else None
        last = node.attr if isinstance(node, cst.Attribute) else node if isinstance(node, cst.Name) else None
        if last is None or (id(last) in self.labels and isinstance(node, cst.Name)):
            return None
        return last.value if last.value in self.options.local_trainers else None

    def flags_to_migrate(self, call: Any) -> list[str]:
        """The keywords of ``call`` that the flag rules would rewrite, or name in a TODO, were it a ``Trainer(...)``
        call: a trial plan, nothing reported (rule ``trainer_subclasses``)."""
        assert self.flag_trial is not None, "the pipeline sets flag_trial"
        return self.flag_trial(self, call)

    def legacy_names(self, node: Any) -> list[str]:
        """The qualified name of ``node`` when it lives under a legacy root (``pytorch_lightning``, ``compat``)."""
        name = self.qualified_name(node)
        return [name] if name is not None and name.split(".", 1)[0] in LEGACY else []

    def code(self, node: Any) -> str:
        import libcst as cst

        return str(cst.Module(body=[]).code_for_node(node))

    # --- statements and findings -----------------------------------------------------------------------------
    def enter_statement(self, node: Any, line: int, column: int) -> None:
        self.statements.append(node)
        self.anchors.append((node, line, column))

    def leave_statement(self) -> None:
        self.statements.pop()
        self.anchors.pop()

    def _pend(self, rule: str, message: str, node: Any, kind: FindingKind) -> None:
        anchor = self.anchors[-1] if self.anchors else None
        self.pending.append(Pending(rule, one_line(message), node, kind, anchor))

    def fix(self, rule: str, message: str, node: Any) -> None:
        self._pend(rule, message, node, "fix")

    @property
    def anchor(self) -> Any:
        """Where the statement being visited lies in the file (its chunk), for :meth:`report_back`."""
        return self.anchors[-1] if self.anchors else None

    def report_back(self, rule: str, message: str, node: Any, anchor: Any) -> None:
        """A report on ``node`` of an earlier statement, whose :attr:`anchor` was ``anchor``."""
        self.pending.append(Pending(rule, one_line(message), node, "report", anchor))

    def report(self, rule: str, message: str, node: Any) -> None:
        self._pend(rule, message, node, "report")

    def todo_here(self, rule: str, message: str, node: Any) -> None:
        """A TODO finding on ``node``'s line whose comment the caller writes itself (inside a call)."""
        self._pend(rule, message, node, "todo")

    def todo(self, rule: str, message: str, node: Any) -> None:
        """Leave the code as it is, put a TODO comment above the enclosing statement and report it."""
        self._pend(rule, message, node, "todo")
        if self.statements:
            texts = self.todos.setdefault(id(self.statements[-1]), [])
            text = todo_comment(message, rule)
            if text not in texts:
                texts.append(text)

    # --- imports, reconciled once at the end (codemods.frontends.python.imports)
    # ----------------------------------------------
    def add_import(self, module: str, obj: str | None = None, asname: str | None = None) -> None:
        if (module, obj, asname) not in self.additions:
            self.additions.append((module, obj, asname))

    def remove_import(self, module: str, obj: str | None = None, asname: str | None = None) -> None:
        from codemods.frontends.python.imports import Removal

        local = asname or obj or module.split(".", 1)[0]
        self.removals.append(Removal(local, module))

    def remove_imports_of(self, node: Any) -> None:
        """Drop the import ``node`` (a name or attribute chain) refers to, if nothing else uses it."""
        import libcst as cst

        from codemods.frontends.python.imports import Removal

        while isinstance(node, cst.Attribute):
            node = node.value
        if isinstance(node, cst.Name):
            self.removals.append(Removal(node.value))


def super_call(func: ast.expr) -> ast.Call | None:
    """The ``super(...)`` call of a callee ``super(...).__init__``."""
    if isinstance(func, ast.Attribute) and func.attr == "__init__" and isinstance(func.value, ast.Call):
        inner = func.value.func
        return func.value if isinstance(inner, ast.Name) and inner.id == "super" else None
    return None


@dataclass
class Site:
    """What the pass visits because one line is among the lines it visits, seen in the module's ``ast``: for a rule's
    screen (:attr:`codemods.plan.rule.Rule.screen`), which drops the line only where the rule provably does nothing.

    The pass visits every statement whose lines hold the line, and of a compound one its own parts (the header of a
    ``def``, a ``class``, a ``with``...), never the statements nested in it that do not hold the line.
    """

    ctx: FileContext
    line: int
    #: Every statement whose lines hold :attr:`line`, in pre-order (outermost first; ``a = 1; b = 2`` are two).
    chain: list[Statement]

    @classmethod
    def at(cls, ctx: FileContext, line: int) -> Site:
        statements = ctx.analysis.statements
        chain: list[Statement] = []
        index = 0
        while index < len(statements):
            statement = statements[index]
            if statement.start > line:
                break
            if statement.end < line:
                index += statement.size  # not in it, nor in what it holds
                continue
            chain.append(statement)
            index += 1  # what it holds, then the statements after it
        return cls(ctx, line, chain)

    def nodes(self) -> Iterator[ast.AST]:
        """The ``ast`` nodes the pass visits: those of the chain's statements, the statements they hold left out."""
        for statement in self.chain:
            stack: list[ast.AST] = [statement.node]
            while stack:
                node = stack.pop()
                yield node
                stack.extend(child for child in ast.iter_child_nodes(node) if not isinstance(child, ast.stmt))

    def calls(self) -> Iterator[ast.Call]:
        return (node for node in self.nodes() if isinstance(node, ast.Call))

    @property
    def scopes(self) -> list[Scope]:
        """The scopes around the chain's innermost statement, module first."""
        return [self.ctx.analysis.module, *(s.scope for s in self.chain[:-1] if s.scope is not None)]

    def imported_root(self, node: ast.expr) -> bool:
        """Whether ``node`` is a name, or an attribute chain that starts from one, bound by a legacy import somewhere
        in the module: only then can ``ctx.qualified_name`` name something of Lightning."""
        while isinstance(node, ast.Attribute):
            node = node.value
        return isinstance(node, ast.Name) and node.id in self.ctx.analysis.imported

    def method_class(self) -> ast.ClassDef | None:
        """The class whose method holds the line when ``self`` is that method's first parameter (what
        ``codemods.rules._attribute_receivers.enclosing_class`` answers in the pass)."""
        nodes = [statement.node for statement in self.chain]
        for index in range(len(nodes) - 1, 0, -1):
            function = nodes[index]
            if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                owner = nodes[index - 1]
                first = function.args.args[0].arg if function.args.args else None
                return owner if isinstance(owner, ast.ClassDef) and first == "self" else None
        return None

    def qualified_names(self, node: ast.expr) -> set[str]:
        """What ``ctx.qualified_name`` may answer for ``node`` anywhere in the chain (under each of its scopes)."""
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return set()
        scopes = self.scopes
        found = (
            self.ctx.analysis.resolve(node.id, scopes[:end], self.ctx.same_thing) for end in range(1, len(scopes) + 1)
        )
        return {".".join([base, *reversed(parts)]) for base in found if base is not None}
