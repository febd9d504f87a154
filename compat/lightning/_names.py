"""Old import paths and names on the real Lightning 2.x, from the renames table (``legacy_api.renames``).

* A renamed class is the 2.x class itself (``pytorch_lightning.plugins.DDPPlugin is DDPStrategy``), so
  ``isinstance`` answers both ways and subclasses are 2.x strategies; reading the old name warns.
* A rename with preset arguments (``DDPSpawnPlugin`` = ``DDPStrategy(start_method="spawn")``) or with 1.x argument
  values (``NativeMixedPrecisionPlugin(16, "cuda")``) is a *subclass* of the 2.x class that supplies or converts
  them: legacy code subclasses these at module level (``class MyPlugin(DDPSpawnPlugin)``), which a factory function
  cannot be, and its instances are DDPStrategy objects to Lightning. ``isinstance(DDPStrategy(start_method="spawn"),
  DDPSpawnPlugin)`` holds too (its metaclass compares the preset).
* A class whose feature 2.x removed (DP, DDP2, Horovod, FairScale, IPU, apex) resolves, and raises
  :class:`RemovedFeatureError` naming the replacement when it is instantiated.
* Old modules (``plugins.training_type.ddp``, ``accelerators.gpu``) are built on import by a ``sys.meta_path``
  finder; the enums (``DistributedType``...) are compat's string enums.

Names are served by a PEP 562 ``__getattr__`` set on the 2.x modules, so Lightning's own graveyard stubs of the same
names are taken off those modules while the shim is installed (the patch log puts them back).
"""

from __future__ import annotations

import functools
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from compat._rows import ENUMS, compat_removed_in
from compat._warn import Notice, warn
from compat.lightning._moved import moved_modules, moved_names, resolve
from compat.lightning._patch import ABSENT, PatchLog, Record
from legacy_api.renames import PL, RENAMES, Rename
from legacy_api.translate import PLUGIN_PRECISION_ARGS, class_fate

#: Where 2.x classes live, relative to the root: the first module that has the name wins.
LOOKUP = ("strategies", "plugins", "plugins.precision", "plugins.environments", "plugins.io", "accelerators")


@dataclass(frozen=True)
class OldName:
    """``<root>.<module>.<name>`` of 1.x, and what 2.x calls it."""

    module: str
    name: str
    new: str | None
    preset: tuple[tuple[str, Any], ...]
    rule: str
    note: str
    deprecated_in: str
    removed_in: str | None
    #: The 2.x module (relative) the row names for ``new``, searched before :data:`LOOKUP` (``loggers``).
    home: str = ""


@functools.cache
def old_names() -> dict[tuple[str, str], OldName]:
    """(module relative to the root, name) -> its row, for every class row of the table under pytorch_lightning."""
    out: dict[tuple[str, str], OldName] = {}
    for row in RENAMES:
        if row.kind != "class" or PL not in row.roots:
            continue
        module, _, name = row.old.rpartition(".")
        fate = class_fate(name)
        if fate is None:
            continue
        new, preset, rule, note = fate
        note = row.note or note
        home = row.new.rpartition(".")[0] if row.new and row.new.rpartition(".")[2] == new else ""
        out.setdefault(
            (module, name),
            OldName(module, name, new, tuple(preset.items()), rule, note, row.deprecated_in, row.removed_in, home),
        )
    return out


@functools.cache
def module_rows() -> dict[str, Rename]:
    """Old module (relative) -> its row of the renames table."""
    return {row.old: row for row in RENAMES if row.kind == "module" and PL in row.roots and row.new}


@functools.cache
def old_modules() -> dict[str, str]:
    """Old module (relative) -> the 2.x module it became, for the modules 2.x no longer has."""
    rows = {old: str(row.new) for old, row in module_rows().items()}
    for module in {module for module, _ in old_names()} | moved_modules():  # held only renamed or moved names
        parts = module.split(".")
        for cut in range(1, len(parts) + 1):
            prefix = ".".join(parts[:cut])
            rows.setdefault(prefix, rows.get(prefix, ""))
    return rows


def _module_of(root: str, name: str, home: str = "") -> str:
    """The 2.x module (relative to ``root``) that has the class ``name``: the row's home, else the first of
    :data:`LOOKUP`."""
    for module_name in (home, *LOOKUP) if home else LOOKUP:
        module = sys.modules.get(f"{root}.{module_name}")
        if module is None and module_name in old_modules():
            continue  # a 1.x module the row names as the class's home (2.x has the class elsewhere)
        module = module or importlib.import_module(f"{root}.{module_name}")
        if name in module.__dict__:
            return module_name
    raise AttributeError(f"{root} has no class {name!r}")


def _find(root: str, name: str, home: str = "") -> Any:
    return importlib.import_module(f"{root}.{_module_of(root, name, home)}").__dict__[name]


def notice(root: str, old: OldName) -> Notice:
    preset = ", ".join(f"{key}={value!r}" for key, value in old.preset)
    if old.new and preset:  # the class where 2.x has it: pytorch_lightning.strategies.DDPStrategy(start_method=...)
        try:
            where = f"{root}.{_module_of(root, old.new, old.home)}"
        except (AttributeError, ImportError):
            where = root
        replacement = f"`{where}.{old.new}({preset})`"
    else:
        replacement = f"`{old.new}`" if old.new else ""
    return Notice(
        f"`{root}.{old.module}.{old.name}`",
        replacement,
        old.deprecated_in,
        compat_removed_in(old.removed_in),
        old.note if not old.new or preset else "",
        rule=old.rule,
    )


# --- the classes ---------------------------------------------------------------------------------------------------
@functools.cache
def removed_feature_error() -> type[Exception]:
    """``RemovedFeatureError``: Lightning's MisconfigurationException, for what 2.x removed (built on first use)."""
    from lightning_fabric.utilities.exceptions import MisconfigurationException

    cls = type(
        "RemovedFeatureError",
        (MisconfigurationException,),
        {"__doc__": "A Lightning 1.x feature that 2.x removed; the message names the replacement.", "__module__": ""},
    )
    cls.__module__ = "compat.lightning"
    return cls


class _RemovedMeta(type):
    """An old class 2.x has nothing for: it resolves (and can be subclassed), and refuses to be instantiated."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        message = cls.__dict__.get("_compat_message", "")
        raise removed_feature_error()(f"`{cls.__name__}` is not available in Lightning 2.x: {message}")

    def __instancecheck__(cls, instance: Any) -> bool:
        # What the shim itself makes in the old class's place is one (``trainer.logger`` of a list of loggers is
        # 1.5's LoggerCollection: compat.lightning._loggers), as on 1.5.
        stands_for = getattr(type(instance), "_compat_stands_for", None)
        return stands_for == cls.__name__ or type.__instancecheck__(cls, instance)


@dataclass
class _Namespace:
    """The classes the shim built for one root, as attributes: pickle finds them by ``<root key>.<name>``."""

    classes: dict[str, type] = field(default_factory=dict)

    def __getattr__(self, name: str) -> type:
        try:
            return self.classes[name]
        except KeyError:
            raise AttributeError(name) from None


#: Root key (``pl``, ``lightning_pytorch``) -> its classes; pickles refer to them as ``compat.lightning._names.<key>``.
_BUILT: dict[str, _Namespace] = {}


def _key(root: str) -> str:
    return "pl" if root == PL else root.replace(".", "_")


def __getattr__(name: str) -> Any:  # pickles of the built classes, in a worker that installed the shim
    if name in _BUILT:
        return _BUILT[name]
    raise AttributeError(name)


def _legacy_init(base: type, preset: dict[str, Any], spelling: dict[Any, str] | None) -> Callable[..., None]:
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        kwargs = {**preset, **kwargs}
        if spelling is not None:
            kwargs.pop("amp_type", None), kwargs.pop("amp_level", None)  # 1.x DeepSpeed AMP args: native only
            args = args[:1] if base.__name__.startswith("DeepSpeed") else args
            if "precision" in kwargs:
                kwargs["precision"] = spelling.get(kwargs["precision"], kwargs["precision"])
            elif args:
                args = (spelling.get(args[0], args[0]), *args[1:])
        init: Any = cast(Any, base).__init__
        init(self, *args, **kwargs)

    return __init__


def _legacy_meta(base: type) -> type:
    def __instancecheck__(cls: Any, instance: Any) -> bool:
        target, preset = cls.__dict__["_compat_target"], cls.__dict__["_compat_preset"]
        if not isinstance(instance, target):
            return False
        return all(getattr(instance, k, getattr(instance, "_" + k, ABSENT)) == v for k, v in preset.items())

    return type(f"_Legacy{type(base).__name__}", (type(base),), {"__instancecheck__": __instancecheck__})


def build(root: str, old: OldName) -> Any:
    """The object the old name stands for on this root (built once per root and name)."""
    space = _BUILT.setdefault(_key(root), _Namespace())
    if old.name in space.classes:
        return space.classes[old.name]
    qualname = f"{_key(root)}.{old.name}"
    if old.new is None:
        namespace: dict[str, Any] = {"_compat_message": old.note, "__module__": __name__, "__qualname__": qualname}
        built: type = _RemovedMeta(old.name, (), namespace)
    else:
        target = _find(root, old.new, old.home)
        spelling = PLUGIN_PRECISION_ARGS.get(old.name)
        if not old.preset and spelling is None:
            return target
        namespace = {
            "__init__": _legacy_init(target, dict(old.preset), spelling),
            "_compat_target": target,
            "_compat_preset": dict(old.preset),
            "__module__": __name__,
            "__qualname__": qualname,
            "__doc__": f"Lightning 1.x's ``{old.name}``: :class:`{target.__name__}` with its 1.x arguments.",
        }
        built = _legacy_meta(target)(old.name, (target,), namespace)
    space.classes[old.name] = built
    return built


# --- modules --------------------------------------------------------------------------------------------------------
def _probing() -> bool:
    # ``from m import X`` probes with hasattr() from importlib's _handle_fromlist, then reads X: warn on the read.
    # A module the finder built answers through _alias_getattr: one frame more.
    caller = sys._getframe(2)
    callers = (caller, caller.f_back)
    return any(frame is not None and frame.f_globals.get("__name__") == "importlib._bootstrap" for frame in callers)


def module_getattr(root: str, relative: str, previous: Any) -> Callable[[str], Any]:
    """The ``__getattr__`` of ``<root>.<relative>`` while the shim is installed."""
    full = f"{root}.{relative}" if relative else root

    def __getattr__(name: str) -> Any:
        old = old_names().get((relative, name))
        if old is not None:
            value = build(root, old)
            if not _probing():
                warn(notice(root, old))
            return value
        moved = moved_names().get((relative, name))
        if moved is not None:
            value = resolve(root, moved)
            if not _probing():
                warn(moved.notice(root))
            return value
        child = f"{relative}.{name}" if relative else name
        if child in old_modules():
            return importlib.import_module(f"{root}.{child}")
        enum = f"{relative}.{name}"
        if enum in ENUMS:
            from compat.enums import enum_class

            return enum_class(enum)
        if previous is not None:
            return previous(name)
        raise AttributeError(f"module {full!r} has no attribute {name!r}")

    return __getattr__


class LegacyModuleFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Builds the 1.x modules 2.x removed (``<root>.plugins.training_type``...) when they are imported."""

    def __init__(self, roots: Sequence[str], log: PatchLog) -> None:
        self.roots = tuple(roots)
        self.log = log

    def _split(self, fullname: str) -> tuple[str, str] | None:
        for root in self.roots:
            if fullname.startswith(root + ".") and fullname[len(root) + 1 :] in old_modules():
                return root, fullname[len(root) + 1 :]
        return None

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if self._split(fullname) is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        split = self._split(module.__name__)
        assert split is not None
        root, relative = split
        new = old_modules()[relative]
        module.__path__ = []
        module.__getattr__ = _alias_getattr(root, relative, new)  # type: ignore[method-assign]
        self.log.note_module(module.__name__)
        parent, _, child = module.__name__.rpartition(".")
        self.log.records.append(Record("attr", sys.modules[parent], child, ABSENT))
        row = module_rows().get(relative)
        if new and row is not None:
            removed = compat_removed_in(row.removed_in or "2.0")
            warn(Notice(f"`import {module.__name__}`", f"`{root}.{new}`", row.deprecated_in, removed, rule=row.rule))


def missing_name(root: str, relative: str, name: str) -> None:
    """Called before a 1.x module built here answers AttributeError for ``name``: a chance to raise a better error.
    :mod:`compat.lightning._removed` sets it (through the patch log) to refuse the names the guide says are gone."""


def _alias_getattr(root: str, relative: str, new: str) -> Callable[[str], Any]:
    own = module_getattr(root, relative, None)

    def __getattr__(name: str) -> Any:
        try:
            return own(name)
        except AttributeError:
            if name.startswith("__"):
                raise
            if not new:
                missing_name(root, relative, name)
                raise
            try:
                return getattr(importlib.import_module(f"{root}.{new}"), name)
            except AttributeError:
                missing_name(root, relative, name)  # a 1.x name its 2.x module does not have
                raise

    return __getattr__


def install_names(root: str, log: PatchLog) -> None:
    """Serve the old names of ``root`` from its 2.x modules (graveyard stubs of the same names taken off)."""
    modules = {module for module, _ in old_names()} | {e.rpartition(".")[0] for e in ENUMS} | {""}
    modules |= {m.rpartition(".")[0] for m in old_modules()} | moved_modules()
    for relative in sorted(modules):
        if relative in old_modules() and not _exists(f"{root}.{relative}"):
            continue  # built by the finder on import
        full = f"{root}.{relative}" if relative else root
        try:
            module = importlib.import_module(full)
        except ImportError:
            continue
        for (where, name), _old in old_names().items():
            if where == relative and name in module.__dict__:
                log.del_attr(module, name)
        log.set_attr(module, "__getattr__", module_getattr(root, relative, module.__dict__.get("__getattr__")))


def _exists(name: str) -> bool:
    if name in sys.modules:
        return True
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False
