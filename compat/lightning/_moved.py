"""Names that moved to another module (rule ``moved_modules``) or package (rule ``moved_packages``), at their 1.5 path.

``from pytorch_lightning.utilities.seed import seed_everything`` and ``pytorch_lightning.utilities.distributed.
rank_zero_only`` are the objects at their 2.x homes; the old modules 2.x dropped (``utilities.distributed``,
``utilities.cli``, ``utilities.apply_func``) are built by :class:`compat.lightning._names.LegacyModuleFinder`.
The rows are the renames table's pure moves (function and class rows whose name stays the same) and the exact rows
of ``legacy_api.moved_packages``; :data:`PRIVATE_HELPERS` adds 1.5's exported private helpers that no table records.
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass
from typing import Any

from compat._rows import compat_removed_in
from compat._warn import Notice
from legacy_api.moved_packages import ACTS_IN, MOVED_PACKAGES
from legacy_api.renames import PL, RENAMES

#: 1.5's ``pytorch_lightning.utilities`` re-exported these private helpers (1.5.10's ``utilities/__init__.py``) and
#: projects imported them (lightning-bolts' ``pl_bolts/utils/__init__.py``); 2.x has the public successor in
#: lightning_utilities, the same code (1.5.10's ``utilities/imports.py`` against lightning_utilities 0.15's
#: ``core/imports.py``). No legacy_api table lists them yet: (old path relative to the root, new absolute path).
PRIVATE_HELPERS: tuple[tuple[str, str], ...] = (
    ("utilities._module_available", "lightning_utilities.core.imports.module_available"),
    ("utilities.imports._module_available", "lightning_utilities.core.imports.module_available"),
)


@dataclass(frozen=True)
class Moved:
    """``<root>.<module>.<name>`` of 1.x is ``new`` now: relative to the root when ``in_root``, else absolute."""

    module: str
    name: str
    new: str
    in_root: bool
    deprecated_in: str
    removed_in: str
    rule: str

    def target(self, root: str) -> str:
        return f"{root}.{self.new}" if self.in_root else self.new

    def notice(self, root: str) -> Notice:
        old = f"`{root}.{self.module}.{self.name}`"
        return Notice(
            old, f"`{self.target(root)}`", self.deprecated_in, compat_removed_in(self.removed_in), rule=self.rule
        )


@functools.cache
def moved_names() -> dict[tuple[str, str], Moved]:
    """(old module relative to the root, name) -> where it lives now."""
    out: dict[tuple[str, str], Moved] = {}
    for row in RENAMES:
        if row.kind not in ("function", "class") or PL not in row.roots or row.new is None:
            continue
        module, _, name = row.old.rpartition(".")
        if row.new.rpartition(".")[2] != name:
            continue  # a renamed class: compat.lightning._names serves it
        removed = row.removed_in or "2.0"
        out.setdefault((module, name), Moved(module, name, row.new, True, row.deprecated_in, removed, row.rule))
    for moved in MOVED_PACKAGES:
        if moved.exact:
            module, _, name = moved.old.removeprefix(f"{PL}.").rpartition(".")
            out.setdefault((module, name), Moved(module, name, moved.new, False, "1.8", ACTS_IN, "moved_packages"))
    for old, new in PRIVATE_HELPERS:
        module, _, name = old.rpartition(".")
        out.setdefault((module, name), Moved(module, name, new, False, "1.6", "2.0", ""))
    return out


def moved_modules() -> set[str]:
    """The old modules (relative) that hold moved names."""
    return {module for module, _ in moved_names()}


def resolve(root: str, moved: Moved) -> Any:
    """The object the old name stands for on ``root``."""
    module, _, name = moved.target(root).rpartition(".")
    return getattr(importlib.import_module(module), name)
