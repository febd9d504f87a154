"""``pytest --compat-audit``: list every legacy API a test session used through ``compat``.

Registered through the ``pytest11`` entry point as ``compat_audit`` and off unless asked:

* ``--compat-audit`` (or ``--compat-audit=report``) prints a table after the run: old API, replacement,
  how many times, and where it was first used;
* ``--compat-audit=error`` also fails the session (exit code 1) if anything was used;
* ``--compat-audit-json=PATH`` writes the same report as JSON (and turns the audit on);
* ``--compat-lightning`` installs :mod:`compat.lightning` for the session: legacy code under test runs on the real,
  installed Lightning 2.x, and its old uses are audited like compat's.

Warnings are collected where compat emits them, before any warning filter: a test that asserts one with
``pytest.warns``, a ``-W error`` run and an ``ignore`` filter are all still audited. Warnings raised in
processes that the tests start themselves are not seen.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from compat._warn import CompatDeprecationWarning, add_listener, remove_listener

MODES = ("off", "report", "error")


@dataclass
class Entry:
    """One old API: how often it was used and where first."""

    old: str
    replacement: str
    removed_in: str
    category: str
    count: int
    first_location: str


class Audit:
    """Collects compat warnings during the session; the hooks below report them."""

    def __init__(self, mode: str, json_path: str | None, rootdir: Path) -> None:
        self.mode = mode
        self.json_path = json_path
        self.rootdir = rootdir
        self.entries: dict[tuple[str, str], Entry] = {}

    def __call__(self, warning: CompatDeprecationWarning, filename: str, lineno: int) -> None:
        notice = warning.notice
        key = (notice.old, notice.replacement)
        entry = self.entries.get(key)
        if entry is None:
            location = f"{self._relative(filename)}:{lineno}"
            category = type(warning).__name__
            self.entries[key] = Entry(notice.old, notice.replacement, notice.removed_in, category, 1, location)
        else:
            entry.count += 1

    def _relative(self, filename: str) -> str:
        try:
            return os.path.relpath(filename, self.rootdir)
        except ValueError:  # another drive on Windows
            return filename

    def sorted_entries(self) -> list[Entry]:
        return sorted(self.entries.values(), key=lambda e: (-e.count, e.old))

    def as_json(self) -> dict[str, Any]:
        entries = [vars(entry) for entry in self.sorted_entries()]
        return {"mode": self.mode, "total": sum(e.count for e in self.entries.values()), "entries": entries}


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("compat", "legacy Lightning API audit (compat)")
    group.addoption(
        "--compat-audit",
        nargs="?",
        const="report",
        default="off",
        choices=MODES,
        help="report every legacy API used through compat (report), or also fail the session (error).",
    )
    group.addoption(
        "--compat-audit-json", metavar="PATH", default=None, help="write the compat audit report as JSON to PATH."
    )
    group.addoption(
        "--compat-lightning",
        action="store_true",
        default=False,
        help="install compat.lightning (the Lightning 1.5 API on the installed Lightning 2.x) for the session.",
    )


_KEY = pytest.StashKey[Audit]()


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("compat_lightning"):
        import compat.lightning

        compat.lightning.install()
    mode = config.getoption("compat_audit")
    json_path = config.getoption("compat_audit_json")
    if mode == "off" and json_path is None:
        return
    audit = Audit("report" if mode == "off" else mode, json_path, config.rootpath)
    config.stash[_KEY] = audit
    add_listener(audit)


def pytest_unconfigure(config: pytest.Config) -> None:
    if config.getoption("compat_lightning"):
        import compat.lightning

        compat.lightning.uninstall()
    audit = config.stash.get(_KEY, None)
    if audit is not None:
        remove_listener(audit)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    audit = session.config.stash.get(_KEY, None)
    if audit is None:
        return
    if audit.json_path is not None:
        Path(audit.json_path).write_text(json.dumps(audit.as_json(), indent=2) + "\n", encoding="utf-8")
    if audit.mode == "error" and audit.entries and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    audit = config.stash.get(_KEY, None)
    if audit is None:
        return
    terminalreporter.section("compat audit")
    entries = audit.sorted_entries()
    if not entries:
        terminalreporter.write_line("No legacy Lightning API was used through compat.")
        return
    rows = [("old API", "replacement", "count", "first location")]
    rows += [(e.old, e.replacement or "-", str(e.count), e.first_location) for e in entries]
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    for index, row in enumerate(rows):
        terminalreporter.write_line(
            "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        )
        if index == 0:
            terminalreporter.write_line("  ".join("-" * width for width in widths))
    total = sum(e.count for e in entries)
    verdict = "failing the session (--compat-audit=error)" if audit.mode == "error" else "report only"
    terminalreporter.write_line(f"{len(entries)} legacy APIs, {total} uses: {verdict}.")
