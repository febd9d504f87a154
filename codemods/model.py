"""What every stage of migrate-trainer passes around: the options of a run and what a file's migration found.

Plain data, no libcst: the runner, the Python and YAML front ends, the rules and the reports all read these.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from legacy_api.renames import DEFAULT_TARGET, version_tuple

TODO_PREFIX = "# TODO(migrate-trainer): "
_LINE_BREAK = re.compile(r"[ \t]*(?:\r\n|\r|\n)\s*")


def one_line(message: str) -> str:
    """``message`` with each line break (and the indentation after it) made one space: a finding quotes the code
    it is about, and code spans lines (``plugins=[\\n    DDPStrategy(...)]``), while a comment holds one."""
    return _LINE_BREAK.sub(" ", message) if "\n" in message or "\r" in message else message


def todo_comment(message: str, rule: str) -> str:
    """The comment a TODO finding writes: ``# TODO(migrate-trainer): <message> [<rule>]``, on one line."""
    return f"{TODO_PREFIX}{one_line(message)} [{rule}]"


FindingKind = Literal["fix", "todo", "report"]
#: Top-level ``ast`` statements of a source in runs, each with the number to add to its line numbers.
Runs = tuple[tuple[tuple[ast.stmt, ...], int], ...]


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
    #: Project classes that subclass a Trainer and hand its flags on (``codemods.project.trainer_classes``).
    local_trainers: frozenset[str] = frozenset()
    #: Project Trainer subclasses whose ``__init__`` takes a migrated flag itself: (name, ``path:line``, flags).
    held_trainers: tuple[tuple[str, str, tuple[str, ...]], ...] = ()
    #: Project classes named like a Trainer that are none (``codemods.project.trainer_classes``).
    plain_trainers: frozenset[str] = frozenset()
    #: Project classes deriving from LightningModule/LightningDataModule/Callback, with that base
    #: (``codemods.project.hook_classes``).
    hook_classes: frozenset[tuple[str, str]] = frozenset()
    #: Each of those classes with the hook words of its text and its project bases' (``project_hook_words``).
    hook_words: frozenset[tuple[str, frozenset[str]]] = frozenset()
    #: The project's data modules whose instances hold ``dims`` from their construction on
    #: (``codemods.project.datamodule_dims``): their ``size()`` is that ``dims``.
    dims_classes: frozenset[str] = frozenset()
    #: The project hands a Trainer a list of loggers somewhere (``codemods.project.logger_lists``).
    logger_lists: bool = False
    #: The code runs in an interactive interpreter (a notebook's cells).
    interactive: bool = False
    #: The code runs under pytest (``codemods.kinds.is_test_path``): 2.0's ``ddp`` launcher would run the session again.
    test_suite: bool = False
    #: The file sees only the YAML configs it loads by name, which no structured schema shapes
    #: (``codemods.project.index.ProjectIndex.schema_free``): a ``**cfg.trainer`` there holds no schema's fields.
    schema_free: bool = False
    #: A Trainer section the file may load sets a strategy once migrated
    #: (``codemods.project.section_plans.config_sets_strategy``): a ``strategy=`` added beside ``**cfg.trainer`` would
    #: be passed twice.
    config_strategy: bool = False
    #: ``(path, key, mode)``: the files whose reads of a config key move with its value in this run
    #: (``cfg.trainer.gpus`` -> ``.devices``), decided for the whole project before any file is rewritten
    #: (``codemods.project.moved_reads``); each file is migrated with its own :attr:`moved_reads`.
    read_moves: frozenset[tuple[str, str, str]] = frozenset()
    #: Config keys whose reads move with their value in this file, dotted (``trainer.gpus``,
    #: ``trainer_params.gpus``; from :attr:`read_moves`).
    moved_reads: frozenset[str] = frozenset()
    #: Removed Trainer flags whose config reads nothing in the project sets
    #: (``codemods.project.moved_reads.unset_keys``).
    unset_reads: frozenset[str] = frozenset()
    #: Those of :attr:`moved_reads` whose reads become an expression of the new keys (``codemods.project.moved_reads``).
    read_expressions: frozenset[str] = frozenset()
    #: Trainer keys whose config stores move with them in this run (``codemods.project.moved_stores``).
    moved_stores: frozenset[str] = frozenset()
    #: Where config keys are used across the project (``codemods.project.index``); not part of the options' identity.
    project: Any = field(default=None, compare=False)

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
    #: The top-level ``ast`` statements of ``source`` where the pipeline already has them, in runs, each with the
    #: number to add to its line numbers (unchanged statements keep their input positions): spares a parse.
    statements: Runs | None = field(default=None, compare=False, repr=False)


def first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


Transform = Callable[[str, Options], Outcome]
