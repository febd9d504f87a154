"""The patch log: every change ``install()`` makes, with what was there before, so ``uninstall()`` undoes it exactly.

Four kinds of change, each recorded before it is made: an attribute set or deleted on an object (a module, a class),
a module put into ``sys.modules``, a finder added to ``sys.meta_path``, an environment variable set. "Before" is
the previous value or :data:`ABSENT`; undoing walks the log backwards, so a name patched twice ends as it began.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Any


class _Absent:
    def __repr__(self) -> str:
        return "ABSENT"


#: What a record holds for a name that did not exist before the patch.
ABSENT: Any = _Absent()


@dataclass(frozen=True)
class Record:
    """One change: ``kind`` is "attr", "module", "finder" or "env"; ``before`` is the old value or ABSENT."""

    kind: str
    target: Any
    name: str
    before: Any


class PatchLog:
    """Changes made so far, in order (see the module docstring)."""

    def __init__(self) -> None:
        self.records: list[Record] = []

    def set_attr(self, target: Any, name: str, value: Any) -> None:
        self.records.append(Record("attr", target, name, target.__dict__.get(name, ABSENT)))
        setattr(target, name, value)

    def del_attr(self, target: Any, name: str) -> None:
        """Remove ``name`` from ``target`` itself (a graveyard stub the shim answers for instead)."""
        if name in target.__dict__:
            self.records.append(Record("attr", target, name, target.__dict__[name]))
            delattr(target, name)

    def add_module(self, name: str, module: Any) -> None:
        self.records.append(Record("module", sys.modules, name, sys.modules.get(name, ABSENT)))
        sys.modules[name] = module

    def note_module(self, name: str) -> None:
        """A module the import system put into ``sys.modules`` for the shim (one of its finder's): remove it then."""
        self.records.append(Record("module", sys.modules, name, ABSENT))

    def add_finder(self, finder: Any) -> None:
        self.records.append(Record("finder", sys.meta_path, type(finder).__name__, finder))
        sys.meta_path.insert(0, finder)

    def set_env(self, name: str, value: str) -> None:
        self.records.append(Record("env", os.environ, name, os.environ.get(name, ABSENT)))
        os.environ[name] = value

    def undo(self) -> None:
        """Restore everything, newest change first."""
        while self.records:
            record = self.records.pop()
            if record.kind == "attr":
                if record.before is ABSENT:
                    if record.name in record.target.__dict__:
                        delattr(record.target, record.name)
                else:
                    setattr(record.target, record.name, record.before)
            elif record.kind in ("module", "env"):
                mapping = record.target
                if record.before is ABSENT:
                    mapping.pop(record.name, None)
                else:
                    mapping[record.name] = record.before
            elif record.kind == "finder" and record.before in sys.meta_path:
                sys.meta_path.remove(record.before)
