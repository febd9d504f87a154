"""The shim in processes Lightning starts, and the audit of a script run (``COMPAT_LIGHTNING_AUDIT_JSON``).

``install()`` puts ``compat/lightning/_site`` (a ``sitecustomize`` that chains the one it shadows) and this
project's root first on ``PYTHONPATH`` and sets ``COMPAT_LIGHTNING=1``: every Python child inherits them, so
Lightning's spawned and forked workers, the script launcher's re-run of ``sys.argv`` and torchrun's processes start
with the shim installed. ``uninstall()`` puts the environment back.

With ``COMPAT_LIGHTNING_AUDIT_JSON=PATH`` every such process adds the legacy uses it warned about (rank zero only,
as warnings are) to PATH when it exits, merged under a file lock: the JSON of ``pytest --compat-audit-json``, where
``count`` is the number of distinct call sites (``sites``, over all processes), not of calls: a hook that reads
``trainer.gpus`` every step is one use to migrate.
"""

from __future__ import annotations

import atexit
import fcntl
import json
import os
from pathlib import Path
from typing import Any

from compat._warn import CompatDeprecationWarning, add_listener
from compat.lightning._patch import PatchLog

SITE = Path(__file__).resolve().parent / "_site"
PROJECT_ROOT = Path(__file__).resolve().parents[2]
ACTIVE = "COMPAT_LIGHTNING"
AUDIT_JSON = "COMPAT_LIGHTNING_AUDIT_JSON"


def activate_children(log: PatchLog) -> None:
    parts = [str(SITE), str(PROJECT_ROOT)]
    old = os.environ.get("PYTHONPATH", "")
    parts += [part for part in old.split(os.pathsep) if part and part not in parts]
    log.set_env("PYTHONPATH", os.pathsep.join(parts))
    log.set_env(ACTIVE, "1")


class ScriptAudit:
    """Collects this process's compat warnings; merges them into the JSON file at exit."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.entries: dict[tuple[str, str], dict[str, Any]] = {}
        # A forked worker starts with the parent's entries, which the parent writes itself.
        os.register_at_fork(after_in_child=self.entries.clear)

    def __call__(self, warning: CompatDeprecationWarning, filename: str, lineno: int) -> None:
        notice = warning.notice
        try:
            location = f"{os.path.relpath(filename)}:{lineno}"
        except ValueError:
            location = f"{filename}:{lineno}"
        entry = self.entries.get((notice.old, notice.replacement))
        if entry is not None:
            if location not in entry["sites"]:
                entry["sites"].append(location)
                entry["count"] = len(entry["sites"])
            return
        self.entries[(notice.old, notice.replacement)] = {
            "old": notice.old,
            "replacement": notice.replacement,
            "removed_in": notice.removed_in,
            "category": type(warning).__name__,
            "count": 1,
            "first_location": location,
            "rule": notice.rule,
            "sites": [location],
        }

    def write(self) -> None:
        if not self.entries:
            return
        path = Path(self.path)
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(f"{path}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            data = json.loads(path.read_text(encoding="utf-8")) if path.exists() and path.stat().st_size else {}
            merged = {(e["old"], e["replacement"]): e for e in data.get("entries", [])}
            for key, entry in self.entries.items():
                if key in merged:
                    sites = merged[key].setdefault("sites", [])
                    sites += [site for site in entry["sites"] if site not in sites]
                    merged[key]["count"] = len(sites)
                else:
                    merged[key] = dict(entry)
            entries = sorted(merged.values(), key=lambda e: (-e["count"], e["old"]))
            out = {"mode": "report", "total": sum(e["count"] for e in entries), "entries": entries}
            path.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


_audit: ScriptAudit | None = None


def start_audit() -> None:
    """Start the script audit once per process, if ``COMPAT_LIGHTNING_AUDIT_JSON`` asks for one."""
    global _audit
    path = os.environ.get(AUDIT_JSON)
    if not path or _audit is not None:
        return
    _audit = ScriptAudit(path)
    add_listener(_audit)
    atexit.register(_audit.write)
