"""Which Lightning hook base a class of the file derives from: shared by the hook rules (``removed_hooks``,
``epoch_end_hooks``), which must agree on what a LightningModule is."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from legacy_api.hooks import HOOK_BASES, LEGACY_RELEASES
from legacy_api.surface import surface

if TYPE_CHECKING:
    import libcst as cst

    from codemods.frontends.python.context import FileContext


def base_of(ctx: FileContext, cls: cst.ClassDef) -> str | None:
    """The Lightning hook base (a short name of ``HOOK_BASES``) ``cls`` derives from through a Lightning class it
    names as a base, by the qualified name its imports give that class, in any legacy release or the target: the
    nearest one in the class's recorded bases (``NativeMixedPrecisionPlugin`` is a ``PrecisionPlugin``,
    ``BaseFinetuning`` a ``BaseFinetuning`` before it is a ``Callback``). A base another rule renames (``DDPPlugin``)
    is recognised by its legacy name."""
    for arg in cls.bases:
        name = ctx.qualified_name(arg.value)
        if not name:
            continue
        for release in (*LEGACY_RELEASES, ctx.surface.release):
            found = _nearest(release, name)
            if found is not None:
                return found
    return None


@functools.cache
def _bases(release: str) -> dict[str, str]:
    """Each hook base's defining key in ``release`` -> its short name."""
    recorded = surface(release)
    keys = ((recorded.resolve(path), short) for path, short in HOOK_BASES.items())
    return {key: short for key, short in keys if key is not None}


@functools.cache
def _nearest(release: str, name: str) -> str | None:
    recorded = surface(release)
    key = recorded.resolve(name)
    if key is None:
        return None
    bases = _bases(release)
    return next((bases[step] for step in recorded.mro(key) if step in bases), None)


def project_base_of(ctx: FileContext, cls: cst.ClassDef) -> tuple[str, str] | None:
    """(the Lightning hook base, the project class it comes through) for a class deriving from one of the project's
    own hook classes (``Options.hook_classes``, found across the project's files); None for any other class."""
    import libcst as cst

    known = dict(ctx.options.hook_classes)
    for arg in cls.bases:
        node = arg.value
        name = node.attr.value if isinstance(node, cst.Attribute) else node.value if isinstance(node, cst.Name) else ""
        if name in known and name != cls.name.value:
            return known[name], name
    return None


def is_lightning_module(ctx: FileContext, cls: cst.ClassDef) -> bool:
    """Whether ``cls`` is a LightningModule: through a Lightning class it names as a base (:func:`base_of`), or
    through the project's own classes (:func:`project_base_of`)."""
    return (base_of(ctx, cls) or (project_base_of(ctx, cls) or ("",))[0]) == "LightningModule"


def owner_class(ctx: FileContext) -> cst.ClassDef | None:
    """The class whose body holds the statement being left (a method's class), if it is one."""
    import libcst as cst

    statements = ctx.statements
    owner = statements[-2] if len(statements) >= 2 else None
    return owner if isinstance(owner, cst.ClassDef) else None


def inherited_words(ctx: FileContext, base: str) -> frozenset[str] | None:
    """The hook words of the project's class ``base`` and the project classes it derives from
    (``Options.hook_words``); None where the run did not record it."""
    return dict(ctx.options.hook_words).get(base)
