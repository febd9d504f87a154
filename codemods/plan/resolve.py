"""Resolve an absolute legacy name through the renames table (standard library only)."""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace

from legacy_api.renames import COMPAT, NEW_ROOT, PL, Rename, rows_for, version_tuple

ROOTS: tuple[str, ...] = (PL, COMPAT)


@dataclass(frozen=True)
class Resolution:
    """Where ``old`` goes: ``new`` is None when the name has no replacement (``rows[-1].note`` says why)."""

    old: str
    new: str | None
    rows: tuple[Rename, ...]

    @property
    def rule(self) -> str:
        # The first row that fired names the rule: ``DDPPlugin`` is a ``strategy_plugins`` finding even on
        # 2.0 targets where a later row also retires ``DDPSpawnStrategy``.
        return self.rows[0].rule

    @property
    def note(self) -> str:
        return next((row.note for row in reversed(self.rows) if row.note), "")

    @property
    def preset(self) -> tuple[tuple[str, str], ...]:
        """Keyword arguments a call of the new class needs to be the old one (see ``Rename.preset``)."""
        return next((row.preset for row in reversed(self.rows) if row.preset), ())


def split_root(name: str) -> tuple[str, str] | None:
    """``"pytorch_lightning.plugins.X"`` -> ``("pytorch_lightning", "plugins.X")``; None for other packages."""
    for root in ROOTS:
        if name == root:
            return root, ""
        if name.startswith(root + "."):
            return root, name[len(root) + 1 :]
    return None


@functools.cache
def _tables(
    root: str, target: tuple[int, ...], rules: frozenset[str] | None
) -> tuple[dict[str, Rename], tuple[Rename, ...]]:
    # compat migrates to newcore, which only has the new names: every compat row applies whatever the target.
    rows = [
        row
        for row in rows_for(root)
        if row.kind != "kwarg"
        and (root == COMPAT or version_tuple(row.acts_in or row.deprecated_in) <= target)
        and (rules is None or row.rule in rules)
    ]
    exact = {row.old: row for row in rows if row.kind != "module"}
    modules = tuple(sorted((row for row in rows if row.kind == "module"), key=lambda r: -len(r.old)))
    return exact, modules


@functools.lru_cache(maxsize=4096)
def resolve(name: str, target: tuple[int, ...], rules: frozenset[str] | None = None) -> Resolution | None:
    """Follow the table from ``name`` (absolute) for ``target``, using rows of ``rules`` (all when None)."""
    split = split_root(name)
    if split is None:
        return None
    root, rel = split
    exact, modules = _tables(root, target, rules)
    applied: list[Rename] = []
    current: str | None = rel
    while current is not None:
        row = exact.get(current)
        if row is None or row in applied:
            row = next(
                (m for m in modules if m not in applied and (current == m.old or current.startswith(m.old + "."))),
                None,
            )
            if row is None:
                break
            current = row.new + current[len(row.old) :] if row.new is not None else None
        else:
            current = row.new
        applied.append(row)
    if not applied:
        return None
    new = None if current is None else (f"{NEW_ROOT[root]}.{current}" if current else NEW_ROOT[root])
    if new == name:
        return None
    missing = _missing_at(new, target) if root == PL and new is not None else None
    if missing is not None:
        # The row's successor is gone too (``plugins.training_type.ddp_spawn`` -> ``strategies.ddp_spawn``, a module
        # 2.0 removed): writing it would fail at the target, so the name is reported as removed instead.
        last = applied[-1]
        note = f"its successor {new} is not in Lightning {missing} either"
        minor = ".".join(missing.split(".")[:2])
        applied.append(replace(last, old=current or "", new=None, removed_in=minor, note=note, preset=()))
        return Resolution(name, None, tuple(applied))
    return Resolution(name, new, tuple(applied))


def _missing_at(new: str, target: tuple[int, ...]) -> str | None:
    """The recorded release of ``target`` when it lacks ``new`` (None when it has it, or cannot tell)."""
    from legacy_api.surface import release_for, surface  # the recordings load only where a rename applies

    try:
        release = surface(release_for(".".join(map(str, target[:2]))))
    except ValueError:
        return None  # no recorded release (the resolver's "any target" probe)
    return release.release if release.knows(new) and not release.has(new) else None
