"""The records of a corpus run: a manifest entry (Project), one CLI run (Run), one project's report (ProjectReport)."""

from __future__ import annotations

from dataclasses import dataclass, field

from corpus_coverage import Coverage


@dataclass
class Project:
    name: str
    repo: str
    commit: str
    paths: list[str]
    why: str
    heldout: bool


@dataclass
class Run:
    jobs: int
    seconds: float
    exit_code: int
    failed: list[str] = field(default_factory=list)
    #: The CLI's JSON findings (kept for the first run only: the coverage is measured on it).
    rows: list[dict[str, object]] = field(default_factory=list, repr=False)


@dataclass
class ProjectReport:
    name: str
    repo: str
    commit: str
    heldout: bool
    missing_blobs: list[str] = field(default_factory=list)
    files: dict[str, int] = field(default_factory=dict)
    changed: dict[str, int] = field(default_factory=dict)
    legacy_before: dict[str, int] = field(default_factory=dict)
    legacy_after: dict[str, int] = field(default_factory=dict)
    legacy_by_kind_before: dict[str, int] = field(default_factory=dict)
    legacy_by_kind_after: dict[str, int] = field(default_factory=dict)
    legacy_left: list[dict[str, object]] = field(default_factory=list)
    silent_legacy: list[dict[str, object]] = field(default_factory=list)
    todo_rules: dict[str, int] = field(default_factory=dict)
    #: The CLI's TODO findings (first run): rule, message, path, line and ``todo_cause``; and their count by cause.
    todo_findings: list[dict[str, object]] = field(default_factory=list)
    todo_causes: dict[str, int] = field(default_factory=dict)
    todos: int = 0
    todo_files: list[str] = field(default_factory=list)
    dangling: list[dict[str, object]] = field(default_factory=list)
    removed_keys: list[str] = field(default_factory=list)
    two_strategies: list[str] = field(default_factory=list)
    unparseable: list[str] = field(default_factory=list)
    yaml_unrelated: list[dict[str, object]] = field(default_factory=list)
    comments_lost: list[dict[str, object]] = field(default_factory=list)
    nondeterministic: list[str] = field(default_factory=list)
    not_idempotent: list[str] = field(default_factory=list)
    runs: list[Run] = field(default_factory=list)
    second_run: Run | None = None
    coverage: Coverage = field(default_factory=Coverage)
    #: The project's own later history (the mirror's newest commit), on the files both commits have: the legacy
    #: uses the maintainers removed by hand, and the ones this run handles in those files.
    maintainers: dict[str, object] = field(default_factory=dict)
    #: YAML files that set a legacy Trainer key: [before the run, still after it].
    legacy_configs: list[int] = field(default_factory=lambda: [0, 0])
