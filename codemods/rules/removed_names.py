"""A Lightning module or name the target release does not have: one TODO where it is imported or named, never silence.

Lightning removed many names without a successor at the same path, most of them in 2.0 (``utilities.seed``'s
``seed_everything``, ``utilities.cli``, ``utilities.distributed``, ``core.lightning``): on the target such an import
fails at once, and ``pl.utilities.distributed.log`` at its first use. The rename rules rewrite or flag the names
their table knows; every other name under ``pytorch_lightning`` is looked up in the surface of the target release
recorded from the real package (``legacy_api.surface``), and one the target lacks gets a TODO naming what the target
has instead where the recording knows it: the message 2.x's graveyard raises for it, or the public module of the
target that exports the same name.

Where: ``from pytorch_lightning.x import y`` and ``import pytorch_lightning.x`` (one TODO a statement, naming every
missing name; the uses of an imported name carry none, the import fails first), and a dotted use through an imported
module (``pl.utilities.distributed.log``: the TODO names the first part the target lacks). Not: an import inside a
``try`` that catches ``ImportError`` (code that already handles both releases), a relative import, and names the
other rules report (the renames table; the Trainer's argparse helpers, rule ``argparse_flags``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.plan.resolve import resolve
from codemods.plan.rule import Rule
from codemods.project.surface_uses import TOKENS as SURFACE_TOKENS
from codemods.rules.argparse_flags import REMOVED_HELPERS
from legacy_api.moved_packages import ACTS_IN, BY_OLD
from legacy_api.removed_names import MOVED_OUT
from legacy_api.renames import PL, RENAMES

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

ID = "removed_names"
_RENAMED_PATHS = frozenset(row.qualified(PL)[0] for row in RENAMES if PL in row.roots)
_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})


def _renamed(ctx: FileContext, name: str) -> bool:
    """Whether a rename row (of any rule) handles ``name`` or a module it lives in."""
    parts = name.split(".")
    return any(resolve(".".join(parts[:end]), ctx.target) is not None for end in range(2, len(parts) + 1))


def _moved_out(ctx: FileContext, name: str) -> bool:
    """Whether rule ``moved_packages`` rewrites ``name`` (an exact successor in another package)."""
    row = BY_OLD.get(name)
    return row is not None and row.exact and ctx.applies("moved_packages", ACTS_IN)


def _handled(ctx: FileContext, name: str) -> bool:
    return _renamed(ctx, name) or _moved_out(ctx, name) or name.rpartition(".")[2] in REMOVED_HELPERS


def _rows_below(ctx: FileContext, name: str) -> bool:
    """Whether a rename row or a rewritten moved-out name lies inside ``name`` (``pytorch_lightning.lite.
    LightningLite``): the dotted use goes on to it, whose rule reports it."""
    prefix = f"{name}."
    return any(old.startswith(prefix) for old in _RENAMED_PATHS) or any(
        old.startswith(prefix) and _moved_out(ctx, old) for old in BY_OLD
    )


def _missing(ctx: FileContext, name: str) -> bool:
    """``name`` is Lightning's, in a public module (the recordings hold no private module, nor dunder names; a
    module's private names they do: ``utilities._module_available``), the target lacks it and no other rule reports
    it."""
    parts = name.split(".")
    if parts[0] != PL or any(part.startswith("_") for part in parts[:-1]) or parts[-1].startswith("__"):
        return False
    release = ctx.surface
    return release.knows(name) and not release.has(name) and not _handled(ctx, name)


def _said(message: str | None) -> str:
    """The words of a graveyard entry (``removed: NotImplementedError: ...``) a person reads."""
    if not message or message.startswith("graveyard module"):
        return ""
    for prefix in ("removed: ", "deprecated: ", "NotImplementedError: "):
        message = message.removeprefix(prefix)
    return message


def _instead(ctx: FileContext, name: str) -> str:
    """What the target has in place of ``name``: its graveyard's message, or the same name elsewhere."""
    release = ctx.surface
    said = _said(release.graveyard(name))
    if said:
        return f": {said}"
    row = BY_OLD.get(name)
    if row is not None:
        return f": it is {row.new} now" + (f"; {row.difference}" if row.difference else "")
    moved = next((text for old, text in MOVED_OUT.items() if name == old or name.startswith(f"{old}.")), None)
    if moved:
        return f": {moved}"
    home = release.home(name.rpartition(".")[2])
    return f" (the name is at {home}.{name.rpartition('.')[2]})" if home else ""


def _deprecated(ctx: FileContext, name: str) -> bool:
    """A name the target keeps working with a deprecation warning (2.2's ``*PrecisionPlugin`` names)."""
    return (ctx.surface.graveyard(name) or "").startswith("deprecated: ")


def guarded(ctx: FileContext) -> bool:
    """Inside a ``try`` whose handlers catch ``ImportError``: written for more than one release already."""
    for statement in ctx.statements:
        if isinstance(statement, cst.Try):
            for handler in statement.handlers:
                kinds = handler.type
                names = [e.value for e in kinds.elements] if isinstance(kinds, cst.Tuple) else [kinds] if kinds else []
                spelled = {ctx.code(name).rpartition(".")[2] for name in names}
                if kinds is None or spelled & _IMPORT_ERRORS:
                    return True
    return False


def _module_name(node: cst.BaseExpression | None) -> str | None:
    if node is None:
        return None
    code = cst.Module(body=[]).code_for_node(node)
    return code.replace(" ", "")


def _todo(ctx: FileContext, names: list[str], node: cst.CSTNode) -> None:
    release = ctx.surface.release
    gone = [name for name in names if not _deprecated(ctx, name)]
    for name in names:
        if name not in gone:
            ctx.report(ID, f"{name} still works in Lightning {release}, with a warning{_instead(ctx, name)}", node)
    # names with one explanation share it (pytorch_lightning.metrics.Accuracy, ...F1: it became torchmetrics)
    said: dict[str, list[str]] = {}
    for name in gone:
        said.setdefault(_instead(ctx, name), []).append(name)
    if said:
        parts = (f"{', '.join(names)}{instead}" for instead, names in said.items())
        ctx.todo(ID, f"Lightning {release} has no " + "; ".join(parts), node)


def leave_import_from(ctx: FileContext, original: cst.ImportFrom, updated: cst.ImportFrom) -> Any:
    module = _module_name(original.module)
    if original.relative or module is None or module.split(".", 1)[0] != PL or guarded(ctx):
        return updated
    if isinstance(original.names, cst.ImportStar):
        missing = [module] if _missing(ctx, module) else []
    else:
        missing = [name for alias in original.names if _missing(ctx, name := f"{module}.{_module_name(alias.name)}")]
    if missing:
        _todo(ctx, missing, original)
    return updated


def leave_import(ctx: FileContext, original: cst.Import, updated: cst.Import) -> Any:
    if guarded(ctx):
        return updated
    missing = [name for alias in original.names if _missing(ctx, name := _module_name(alias.name) or "")]
    if missing:
        _todo(ctx, missing, original)
    return updated


def leave_attribute(ctx: FileContext, original: cst.Attribute, updated: cst.Attribute) -> Any:
    """``pl.utilities.distributed.log``: a TODO on the first part the target lacks, once."""
    if ctx.in_import or id(original) in ctx.claimed:
        return updated
    name = ctx.qualified_name(original)
    if name is None or not _missing(ctx, name):
        return updated
    if _rows_below(ctx, name):
        return updated
    base = ctx.qualified_name(original.value)
    if base is not None and base != PL and not ctx.surface.has(base) and not _rows_below(ctx, base):
        return updated  # the part before it is missing too: that part has the TODO
    _todo(ctx, [name], original)
    return updated


RULE = Rule(
    id=ID,
    description="a pytorch_lightning module or name the target release lacks (recorded from the real releases) is "
    "flagged at its import or use",
    deprecated_in="1.6",
    handlers={"ImportFrom": leave_import_from, "Import": leave_import, "Attribute": leave_attribute},
    order=900,
    tokens=SURFACE_TOKENS[:1],
)
