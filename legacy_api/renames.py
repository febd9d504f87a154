"""The one table of old -> new names, shared by the codemods, the compat aliases and MIGRATION.md.

Standard library only: ``compat`` imports this module at runtime without libcst.

Names are relative to an import root. Two roots are migrated alike:

* ``pytorch_lightning`` -> ``pytorch_lightning`` (Lightning 1.6+ names, subject to ``--target-version``);
* ``compat`` (this project's mirror of the 1.5 layout) -> ``newcore`` (settled 1.6-1.9 names, always).

A row with ``new=None`` has no mechanical replacement: the codemod leaves the code and adds a
``# TODO(migrate-trainer): ...`` comment carrying ``note``.

This module is the table's public face: import every name from here. The facts live one concept a module:
the roots, target versions and row type in ``_rename``; the rows in ``_rename_rows`` (up to 2.0) and
``_rename_rows_2x`` (2.1+), joined here into ``RENAMES``; ``_enum_members``; ``_trainer_properties``;
``_strategy_names``. What MIGRATION.md shows of them is rendered here.
"""

from __future__ import annotations

from legacy_api._enum_members import ENUM_MEMBERS
from legacy_api._rename import (
    BOTH,
    COMPAT,
    DEFAULT_TARGET,
    NEW_ROOT,
    PL,
    TARGET_VERSIONS,
    Kind,
    Rename,
    version_tuple,
)
from legacy_api._rename_rows import (
    _accelerator_rows,
    _compat_rows,
    _kwarg_rows,
    _lite_rows,
    _logger_rows,
    _lr_logger_rows,
    _precision_rows,
    _progress_bar_rows,
    _strategy_removal_rows,
    _strategy_rows,
)
from legacy_api._rename_rows_2x import _moved_out_rows, _precision_2x_rows, _xla_rows
from legacy_api._rename_rows_moved import _moved_module_rows, _profiler_rows
from legacy_api._strategy_names import ACCELERATOR_NAMES, DEVICE_FLAGS, STRATEGY_CLASSES, STRATEGY_NAMES
from legacy_api._trainer_properties import TRAINER_PROPERTIES, TrainerProperty

__all__ = [
    "ACCELERATOR_NAMES",
    "BOTH",
    "COMPAT",
    "DEFAULT_TARGET",
    "DEVICE_FLAGS",
    "ENUM_MEMBERS",
    "MARKER_END",
    "MARKER_START",
    "NEW_ROOT",
    "PL",
    "RENAMES",
    "STRATEGY_CLASSES",
    "STRATEGY_NAMES",
    "TARGET_VERSIONS",
    "TRAINER_PROPERTIES",
    "Kind",
    "Rename",
    "TrainerProperty",
    "render_markdown",
    "rows_for",
    "version_tuple",
]


RENAMES: tuple[Rename, ...] = (
    *_strategy_rows(),
    *_strategy_removal_rows(),
    *_accelerator_rows(),
    *_precision_rows(),
    *_precision_2x_rows(),
    *_xla_rows(),
    *_moved_out_rows(),
    *_logger_rows(),
    *_progress_bar_rows(),
    *_lr_logger_rows(),
    *_moved_module_rows(),
    *_profiler_rows(),
    *_lite_rows(),
    *_compat_rows(),
    *_kwarg_rows(),
)


def rows_for(root: str) -> tuple[Rename, ...]:
    """Rows that apply to names under ``root`` (``"pytorch_lightning"`` or ``"compat"``)."""
    return tuple(row for row in RENAMES if root in row.roots)


# --- MIGRATION.md ------------------------------------------------------------------------------------------------
MARKER_START = "<!-- renames:start -->"
MARKER_END = "<!-- renames:end -->"


def render_markdown() -> str:
    """The markdown tables MIGRATION.md embeds between ``MARKER_START`` and ``MARKER_END`` (markers excluded)."""
    lines = [
        "| Old | New | Deprecated in | Removed in | Rule | Migration |",
        "|---|---|---|---|---|---|",
    ]
    for row in RENAMES:
        for root in row.roots:
            old, new = row.qualified(root)
            how = "automatic" if new is not None else f"TODO: {row.note}"
            if row.preset:
                how = "automatic in calls; TODO elsewhere (`isinstance`, base classes)"
                new = f"{new}({', '.join(f'{key}={value!r}' for key, value in row.preset)})"
            target = f"`{new}`" if new is not None else "—"
            lines.append(
                f"| `{old}` | {target} | {row.deprecated_in} | {row.removed_in or '—'} | `{row.rule}` | {how} |"
            )
    lines += [
        "",
        "| Trainer property | Replacement | Deprecated in | Removed in | Rule | Migration |",
        "|---|---|---|---|---|---|",
    ]
    for prop in TRAINER_PROPERTIES:
        target = f"`trainer.{prop.new}`" if prop.new else "—"
        how = "automatic" if prop.new and prop.exact else f"TODO: {prop.note}"
        if prop.instead and prop.rewritten:
            how = f"automatic: `{prop.replacement()}` ({prop.note})"
        elif prop.instead:
            how += f"; the same value: `{prop.replacement()}`"
            how += " (`GPUAccelerator` in 1.6)" if "{CUDAAccelerator}" in prop.instead else ""
        lines.append(
            f"| `trainer.{prop.old}` | {target} | {prop.deprecated_in} | {prop.removed_in or '—'} "
            f"| `trainer_properties` | {how} |"
        )
    lines += [
        "",
        "| Enum | Members become | Deprecated in | Removed in | Rule | Migration |",
        "|---|---|---|---|---|---|",
    ]
    for name, (dep, rm, members) in ENUM_MEMBERS.items():
        values = ", ".join(f"`{m}`→`{v!r}`" for m, v in members.items())
        lines.append(f"| `{PL}.{name}` / `{COMPAT}.{name}` | {values} | {dep} | {rm} | `enum_members` | automatic |")
    return "\n".join(lines) + "\n"
