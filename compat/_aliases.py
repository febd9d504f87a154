"""Old class names as working classes: ``DDPPlugin`` is a ``DDPStrategy`` in every way legacy code checks.

An alias class subclasses the new class, so instances, subclassing and ``super()`` work unchanged. Its
metaclass makes ``isinstance``/``issubclass`` answer for the *new* class: a ``DDPStrategy`` built by newcore
is a ``DDPPlugin``, as it was in Lightning 1.6. A user's subclass of an alias is an ordinary class again.
Creating an alias instance, or subclassing one, warns; the warning is built here, not by
``deprecation.deprecated``, which cannot wrap classes.
"""

from __future__ import annotations

import copyreg
import functools
import threading
from abc import ABCMeta
from typing import Any

from compat._resolve import new_object
from compat._rows import ALIASES, Alias
from compat._warn import Notice, warn

#: Set on an alias class (never inherited through ``__dict__``): the new class it stands for.
_TARGET = "_compat_target"
_NOTICE = "_compat_notice"
#: Set on an alias class: the old name of its canonical row, by which unpickling rebuilds it.
_ROW = "_compat_row"
#: Set on classes compat itself derives from an alias (see :mod:`compat.properties`): no subclassing warning.
INTERNAL = "_compat_internal"


#: Alias classes whose ``issubclass`` is being answered in this thread (see ``__subclasscheck__``).
_ACTIVE = threading.local()


def _target(cls: type) -> type | None:
    target = cls.__dict__.get(_TARGET)
    return target if isinstance(target, type) else None


class _AliasMeta(type):
    """Metaclass of alias classes; see the module docstring."""

    def __init__(cls, name: str, bases: tuple[type, ...], namespace: dict[str, Any], **kwargs: Any) -> None:
        super().__init__(name, bases, namespace, **kwargs)
        if _TARGET in namespace or INTERNAL in namespace:
            return
        # A user's class statement that subclasses an alias: say so at that line.
        for base in bases:
            notice = base.__dict__.get(_NOTICE)
            if isinstance(notice, Notice):
                warn(notice)
                break
        if "register_plugins" in namespace:
            from compat.registry import legacy_plugins_registry, register_plugins_notice

            warn(register_plugins_notice(name))
            hook = namespace["register_plugins"]
            getattr(hook, "__func__", hook)(cls, legacy_plugins_registry())

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        notice = cls.__dict__.get(_NOTICE)
        if isinstance(notice, Notice):
            warn(notice)
        return super().__call__(*args, **kwargs)

    def __instancecheck__(cls, instance: Any) -> bool:
        target = _target(cls)
        if target is not None:
            return isinstance(instance, target)
        return super().__instancecheck__(instance)

    def __subclasscheck__(cls, subclass: type) -> bool:
        target = _target(cls)
        active = _ACTIVE.__dict__.setdefault("classes", set())
        # ABCMeta answers by asking each real subclass of the target, and the alias is one: without this
        # guard, issubclass(str, CUDAAccelerator) would ask GPUAccelerator, which asks CUDAAccelerator...
        if target is None or cls in active:
            return super().__subclasscheck__(subclass)
        active.add(cls)
        try:
            return issubclass(subclass, target)
        finally:
            active.discard(cls)


class _AliasABCMeta(_AliasMeta, ABCMeta):
    """For aliases of abstract classes (accelerators), whose metaclass is ``ABCMeta``."""


def alias_notice(alias: Alias) -> Notice:
    """The warning for using ``compat.<alias.old>``."""
    replacement = f"`newcore.{alias.new}`" if alias.new is not None else ""
    return Notice(f"`compat.{alias.old}`", replacement, alias.deprecated_in, alias.removed_in, alias.note)


@functools.cache
def alias_class(alias: Alias, new: type) -> type:
    """The one alias class for the canonical row ``alias`` of an old class (see :mod:`compat.modules`).

    Cached, so every old import path returns the same class. ``__module__`` is the 1.5 module, so
    pickles and reprs name the old location.
    """
    module, _, name = f"compat.{alias.old}".rpartition(".")
    meta = _AliasABCMeta if isinstance(new, ABCMeta) else _AliasMeta
    doc = f"Deprecated: Lightning 1.5's ``{name}``, now :class:`{new.__module__}.{new.__qualname__}`."
    namespace = {_TARGET: new, _NOTICE: alias_notice(alias), "__doc__": doc, "__module__": module, "__qualname__": name}
    namespace[_ROW] = alias.old
    return meta(name, (new,), namespace)


def _rebuild(old: str) -> type:
    """The alias class of the row ``old``, quietly: unpickling in a worker repeats no warning of the parent."""
    alias = ALIASES[old]
    assert alias.new is not None  # only rows with a new class have alias classes
    cls: type = alias_class(alias, new_object(alias.new))
    return cls


def _reduce_class(cls: type) -> str | tuple[Any, tuple[str]]:
    """Pickle an alias class by its row, not by its old import path.

    By path, pickle would read ``compat.plugins...DDPPlugin`` through the module ``__getattr__``, which warns
    (in the parent when pickling, in every spawned worker when unpickling). A user's subclass of an alias is an
    ordinary class and pickles by name as usual.
    """
    old = cls.__dict__.get(_ROW)
    return (_rebuild, (old,)) if isinstance(old, str) else cls.__qualname__


# pickle consults copyreg for classes whose metaclass is not ``type`` itself (and never the metaclass's __reduce__).
copyreg.pickle(_AliasMeta, _reduce_class)
copyreg.pickle(_AliasABCMeta, _reduce_class)
