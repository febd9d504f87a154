"""What 2.x removed with nothing to run in its place: a :class:`RemovedFeatureError` naming the replacement, at the use.

The rows are those of Lightning's upgrade guide (``legacy_api.upgrade_guide.ROWS``) whose ``probe`` names a module,
a module's name or a class member that the recorded surfaces show gone by 2.6, and whose use is not a hook or an
argument (other modules handle those). Each is a fallback: it answers only where 2.x (and the rest of the shim)
has nothing under that name, and a subclass's own member of the same name wins.

* a class member (``trainer.running_sanity_check``, ``Trainer.parse_argparser``): a descriptor on the 2.x class
  that raises ``RemovedAttributeError``, both a RemovedFeatureError and an AttributeError, so ``hasattr`` and
  ``getattr(obj, name, default)`` answer as on plain 2.x;
* a name of a module 2.x keeps (``from pytorch_lightning.callbacks import GPUStatsMonitor``): the module's
  ``__getattr__`` raises ``RemovedNameError`` (also an ImportError) at ``from ... import``, and an AttributeError
  that names the replacement on any other access (``hasattr`` stays False);
* a module 2.x dropped (``pytorch_lightning.utilities.finite_checks``): importing it raises ``RemovedModuleError``
  (also a ModuleNotFoundError, so ``try: import ... except ImportError`` probes still work).
"""

from __future__ import annotations

import dis
import functools
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from compat.lightning._names import old_modules, removed_feature_error
from compat.lightning._patch import PatchLog
from legacy_api.renames import PL
from legacy_api.upgrade_guide import ROWS

#: Row details (the ``migrate-trainer`` rule) whose use is a hook, an argument or a keyword: not a name to refuse.
NOT_NAMES = frozenset(
    {"removed_hooks", "removed_keywords", "removed_arguments", "epoch_end_hooks", "optimizer_step_hook"}
)
_IMPORT_FROM = dis.opmap["IMPORT_FROM"]


@dataclass(frozen=True)
class Gone:
    """A removed path (relative to the root) and what the guide says to use instead."""

    path: str
    replacement: str
    gone: str
    row: str

    def message(self, root: str) -> str:
        where = f"`{root}.{self.path}` is gone since Lightning {self.gone} (upgrade guide row {self.row})"
        return f"{where}; instead: {self.replacement}"


@functools.cache
def graveyard() -> dict[str, Gone]:
    """Removed path (relative to the root) -> its row, first row wins."""
    out: dict[str, Gone] = {}
    for row in ROWS:
        probe = row.probe
        if not probe.startswith(f"{PL}.") or "(" in probe or row.detail in NOT_NAMES:
            continue
        if row.gone in ("", "kept", "never"):
            continue
        path = probe.removeprefix(f"{PL}.")
        out.setdefault(path, Gone(path, row.replacement, row.gone, row.id))
    return out


@functools.cache
def _errors() -> dict[str, Any]:
    base = removed_feature_error()
    made = {}
    for name, other in (
        ("RemovedAttributeError", AttributeError),
        ("RemovedNameError", ImportError),
        ("RemovedModuleError", ModuleNotFoundError),
    ):
        cls = type(name, (base, other), {"__doc__": f"RemovedFeatureError that is also {other.__name__}."})
        cls.__module__ = "compat.lightning"
        made[name] = cls
    return made


class _GoneMember:
    """A class attribute that is no longer there: reading it raises, naming the replacement."""

    def __init__(self, message: str) -> None:
        self.message = message

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        raise _errors()["RemovedAttributeError"](self.message)


def _from_import() -> bool:
    """Whether the module ``__getattr__`` runs for a ``from m import name`` statement (its caller's instruction)."""
    frame = sys._getframe(1)
    while frame.f_back is not None and frame.f_globals.get("__name__", "").startswith("compat.lightning"):
        frame = frame.f_back
    return frame.f_code.co_code[frame.f_lasti] == _IMPORT_FROM


def _module_getattr(root: str, relative: str, names: dict[str, Gone], previous: Any) -> Callable[[str], Any]:
    def __getattr__(name: str) -> Any:
        if previous is not None:
            try:
                return previous(name)
            except AttributeError:
                if name not in names:
                    raise
        gone = names.get(name)
        if gone is None:
            raise AttributeError(f"module '{root}.{relative}' has no attribute {name!r}")
        refuse(root, gone)

    return __getattr__


def refuse(root: str, gone: Gone) -> None:
    """Raise for a removed module name: an ImportError at ``from m import name``, else an AttributeError (both
    RemovedFeatureErrors), so ``hasattr`` answers False as on plain 2.x."""
    if _from_import():
        raise _errors()["RemovedNameError"](gone.message(root), name=f"{root}.{gone.path.rpartition('.')[0]}")
    raise _errors()["RemovedAttributeError"](gone.message(root))


def refuse_in_old_module(root: str, relative: str, name: str) -> None:
    """For the 1.x modules ``compat.lightning._names`` builds: raise if ``relative.name`` is in the graveyard."""
    gone = graveyard().get(f"{relative}.{name}")
    if gone is not None:
        refuse(root, gone)


class RemovedModuleFinder(importlib.abc.MetaPathFinder):
    """Finds the removed modules of :func:`graveyard` only to refuse them, naming the replacement."""

    def __init__(self, roots: Sequence[str], modules: dict[str, list[Gone]]) -> None:
        self.roots = tuple(roots)
        self.modules = modules

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        for root in self.roots:
            relative = fullname.removeprefix(f"{root}.")
            if relative != fullname and relative in self.modules:
                rows = self.modules[relative]
                what = "; ".join(f"{g.path.rpartition('.')[2]}: use {g.replacement}" for g in rows)
                message = f"`{fullname}` was removed from Lightning (upgrade guide row {rows[0].row}): {what}"
                raise _errors()["RemovedModuleError"](message, name=fullname)
        return None


def _module(name: str) -> Any:
    try:
        if importlib.util.find_spec(name) is None:
            return None
        return importlib.import_module(name)
    except (ImportError, ValueError, AttributeError):
        return None


def _add(dropped: dict[str, list[Gone]], module: str, gone: Gone) -> None:
    """One row per module and name, whatever the number of roots."""
    rows = dropped.setdefault(module, [])
    if gone not in rows:
        rows.append(gone)


#: 1.x classes whose members the guide lists, by name -> the 2.x class (relative to the root) that took their place:
#: a removed member is refused there (``plugin.task_idx`` on the DDPStrategy a DDPPlugin now is,
#: ``trainer.fit_loop.replace`` on 2.x's loops). Read in the 2.6.6 package: the connectors and loops are private now.
OWNERS = {
    "DDPPlugin": "strategies.DDPStrategy",
    "CheckpointConnector": "trainer.connectors.checkpoint_connector._CheckpointConnector",
    "AcceleratorConnector": "trainer.connectors.accelerator_connector._AcceleratorConnector",
    "Loop": "loops.loop._Loop",
    "SimpleProfiler": "profilers.SimpleProfiler",
    "AdvancedProfiler": "profilers.AdvancedProfiler",
}


def _owner(root: str, name: str) -> type | None:
    """The 2.x class :data:`OWNERS` names for the 1.x class ``name``, if this root has it."""
    where = OWNERS.get(name)
    if where is None:
        return None
    module, _, cls = f"{root}.{where}".rpartition(".")
    found = getattr(_module(module), cls, None)
    return found if isinstance(found, type) else None


def install_removed(roots: Sequence[str], log: PatchLog) -> None:
    """Put the graveyard on each root: members on classes, names on modules, a finder for the dropped modules."""
    dropped: dict[str, list[Gone]] = {}
    for root in roots:
        names: dict[str, dict[str, Gone]] = {}
        for path, gone in sorted(graveyard().items()):
            parts = path.split(".")
            cut = max(c for c in range(len(parts) + 1) if c == 0 or _module(".".join([root, *parts[:c]])) is not None)
            module = importlib.import_module(".".join([root, *parts[:cut]]))
            rest = parts[cut:]
            renamed = _owner(root, rest[-2]) if len(rest) >= 2 else None
            if renamed is not None:
                if not hasattr(renamed, rest[-1]):
                    log.set_attr(renamed, rest[-1], _GoneMember(gone.message(root)))
            elif len(rest) == 2 and isinstance(module.__dict__.get(rest[0]), type):
                owner = module.__dict__[rest[0]]
                if not hasattr(owner, rest[1]):
                    log.set_attr(owner, rest[1], _GoneMember(gone.message(root)))
            elif len(rest) == 1 and rest[0] not in module.__dict__:
                names.setdefault(".".join(parts[:cut]), {})[rest[0]] = gone
                _add(dropped, path, gone)  # ``import <root>.<path>``: the guide's probe may name a module
            elif len(rest) >= 2 and rest[0].islower():
                module_path = ".".join(parts[: cut + 1])
                if module_path not in old_modules():  # compat.lightning._names builds that one
                    _add(dropped, module_path, gone)
                    names.setdefault(".".join(parts[:cut]), {}).setdefault(rest[0], gone)  # ``pl.utilities.meta``
        for relative, gone_names in names.items():
            module = importlib.import_module(f"{root}.{relative}" if relative else root)
            previous = module.__dict__.get("__getattr__")
            log.set_attr(module, "__getattr__", _module_getattr(root, relative, gone_names, previous))
    if dropped:
        log.add_finder(RemovedModuleFinder(roots, dropped))
    log.set_attr(sys.modules["compat.lightning._names"], "missing_name", refuse_in_old_module)
