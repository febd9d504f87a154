"""Old import paths: one PEP 562 ``__getattr__`` for every module of the 1.5 layout under ``compat``.

Each module file under ``compat/plugins``, ``compat/accelerators`` and ``compat/utilities`` is two lines
that install :func:`module_getattr`; everything else is driven by the renames table:

1. a row for ``<module>.<name>`` returns its replacement (an alias class for classes) and warns;
2. a submodule file is imported lazily, as ``import compat.plugins; compat.plugins.training_type`` expects;
3. an enum of the table returns compat's string enum (its *members* warn, see :mod:`compat.enums`);
4. otherwise the name is looked up in the newcore module the table maps this module to, warning only if
   that module row is itself deprecated (``compat.plugins.PrecisionPlugin`` is simply newcore's).

Nothing is cached in the module: every access goes through here, so every use warns.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any

from compat._aliases import alias_class, alias_notice
from compat._resolve import is_module
from compat._resolve import new_object as new_object  # public here: tests and users import it from compat.modules
from compat._rows import ALIASES, ENUMS, Alias
from compat._warn import warn


def _canonical_rows() -> dict[str, Alias]:
    """Old class name -> its row with the longest path: the 1.5 module that defined it."""
    rows: dict[str, Alias] = {}
    for alias in ALIASES.values():
        if alias.kind != "class" or alias.new is None:
            continue
        name = alias.old.rpartition(".")[2]
        if name not in rows or len(alias.old) > len(rows[name].old):
            rows[name] = alias
    return rows


_CANONICAL = _canonical_rows()


def replacement(alias: Alias) -> Any:
    """What ``compat.<alias.old>`` evaluates to: an alias class, a legacy object, or the new object itself."""
    if alias.new is None:
        raise ImportError(f"`compat.{alias.old}` has no replacement in newcore: {alias.note}")
    new = new_object(alias.new)
    if alias.kind != "class" or not alias.warns:
        return new
    if isinstance(new, type):
        name = alias.old.rpartition(".")[2]
        return alias_class(_CANONICAL.get(name, alias), new)
    from compat.registry import OBJECT_FACTORIES

    factory = OBJECT_FACTORIES.get(alias.new.rpartition(".")[2])
    return factory() if factory is not None else new


def _module_row(relative: str) -> Alias | None:
    alias = ALIASES.get(relative)
    return alias if alias is not None and alias.kind == "module" else None


def lookup(relative: str, name: str, *, quiet: bool = False) -> Any:
    """``compat.<relative>.<name>``, following the rules in the module docstring; ``quiet`` never warns."""
    qualified = f"{relative}.{name}" if relative else name
    alias = ALIASES.get(qualified)
    if alias is not None and alias.kind != "module":
        value = replacement(alias)
        if alias.warns and not quiet:
            warn(alias_notice(alias))
        return value
    if is_module(f"compat.{qualified}"):
        return importlib.import_module(f"compat.{qualified}")
    if qualified in ENUMS:
        from compat.enums import enum_class

        return enum_class(qualified)
    module_row = _module_row(relative)
    if module_row is not None and module_row.new is not None:
        target = new_object(module_row.new)
        if hasattr(target, name):
            if module_row.warns and not quiet:
                warn(alias_notice(module_row))
            return getattr(target, name)
    raise AttributeError(f"module 'compat.{relative}' has no attribute {name!r}")


def module_getattr(module: str) -> Callable[[str], Any]:
    """The ``__getattr__`` for the compat module named ``module`` (pass ``__name__``)."""
    relative = module.removeprefix("compat").lstrip(".")

    def __getattr__(name: str) -> Any:
        if name.startswith("__"):  # dunder probes (``__path__``, ``__wrapped__``...) are not API
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        # ``from compat.plugins import DDPPlugin`` first probes the package with hasattr() from importlib's
        # ``_handle_fromlist``, then reads the name: warn on the read only, so one import gives one warning.
        probing = sys._getframe(1).f_globals.get("__name__") == "importlib._bootstrap"
        return lookup(relative, name, quiet=probing)

    return __getattr__
