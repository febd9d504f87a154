"""The renames table's vocabulary: its import roots, the target versions, and the row type :class:`Rename`.

Standard library only. Import these names from :mod:`legacy_api.renames`, the table's public face.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Kind = Literal["class", "module", "function", "enum", "property", "kwarg"]

PL = "pytorch_lightning"
COMPAT = "compat"
BOTH: tuple[str, ...] = (PL, COMPAT)

#: Old import root -> the root its names migrate to.
NEW_ROOT: dict[str, str] = {PL: PL, COMPAT: "newcore"}

#: Target versions ``--target-version`` accepts, oldest first: every 1.x minor from 1.6 and every 2.x minor up to
#: the newest pytorch-lightning release (2.6.6 when this was written; legacy_api/LIGHTNING_2X.md has the facts).
TARGET_VERSIONS: tuple[str, ...] = ("1.6", "1.7", "1.8", "1.9", "2.0", "2.1", "2.2", "2.3", "2.4", "2.5", "2.6")
#: The newest target: a run without ``--target-version`` migrates to the Lightning that ``pip install`` gets.
DEFAULT_TARGET = TARGET_VERSIONS[-1]


def version_tuple(version: str) -> tuple[int, ...]:
    """``"1.10"`` -> ``(1, 10)``, so versions compare numerically, not as text."""
    return tuple(int(part) for part in version.split("."))


@dataclass(frozen=True)
class Rename:
    """One renamed (or removed) name, relative to each root in ``roots``."""

    old: str
    new: str | None
    kind: Kind
    deprecated_in: str
    removed_in: str | None
    rule: str
    roots: tuple[str, ...] = BOTH
    note: str = ""
    #: The first target the row acts on, when later than ``deprecated_in``: a class that still works (and
    #: that another rule writes) up to its removal is only flagged for targets where it is gone.
    acts_in: str | None = None
    #: Keyword arguments the new class needs to be the old one (``DDPSpawnStrategy()`` is
    #: ``DDPStrategy(start_method="spawn")``): a call gets them; any other use (``isinstance``, a base class)
    #: has no exact equivalent and gets a TODO.
    preset: tuple[tuple[str, str], ...] = ()

    def qualified(self, root: str) -> tuple[str, str | None]:
        """Absolute (old, new) names for ``root``; ``new`` uses the root's new root."""
        new = f"{NEW_ROOT[root]}.{self.new}" if self.new is not None else None
        return f"{root}.{self.old}", new
