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

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from codemods.frontends.python.qualnames import LEGACY, TRAINERS, Analysis, Scope
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
    #: The file has its TODO for a removed argparse helper (``argparse_flags``): the others are reported.
    argparse_todo: bool = False
    #: ids of import lines inside a block -> the import lines to add right below them (``_rename``).
    split_imports: dict[int, list[Any]] = field(default_factory=dict)
    additions: list[tuple[str, str | None, str | None]] = field(default_factory=list)
    removals: list[Any] = field(default_factory=list)

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

    @property
    def surface(self) -> Surface:
        """The API surface of the target release, recorded from the real package (``legacy_api.surface``)."""
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

    def resolve(self, local: str) -> str | None:
        """The qualified name the local name ``local`` is imported as, in the scopes around the visited node."""
        return self.analysis.resolve(local, self.scopes, self.same_thing)

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
