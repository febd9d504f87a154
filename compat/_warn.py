"""The one place where compat warns.

Every alias, legacy flag, property and enum member goes through :func:`warn` with a :class:`Notice`.
The text is produced by the ``deprecation`` package (``DeprecatedWarning.__str__``), so every message
reads the same: what is deprecated, since which Lightning version, in which lightning-migrate release the
shim goes, and the replacement. We do not use ``deprecation.deprecated`` itself: it wraps functions and
breaks classes, metaclasses and properties.

The category is :class:`CompatDeprecationWarning`, a ``FutureWarning``: Python shows those by default,
whereas a plain ``DeprecationWarning`` raised from library code is hidden, and users would never learn
what to migrate.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType

import deprecation

from legacy_api import rule_effects

#: The distribution whose releases drop the shims (``Notice.removed_in`` is one of its versions).
PROJECT = "lightning-migrate"

#: Packages whose frames are never "the user's line": the warning points past them (Lightning's and torch's
#: own frames too: under compat.lightning the real Lightning calls the user's hooks and reads the patched names).
_INTERNAL_PACKAGES = (
    "compat",
    "newcore",
    "importlib",
    "enum",
    "abc",
    "pytorch_lightning",
    "lightning",
    "lightning_fabric",
    "lightning_utilities",
    "torch",
    *("hydra", "omegaconf", "jsonargparse"),  # a Trainer built from a config: the user wrote the config and the call
)

#: Where launchers and schedulers publish this process's rank, in Lightning's order of preference.
_RANK_VARIABLES = ("RANK", "LOCAL_RANK", "SLURM_PROCID", "JSM_NAMESPACE_RANK")


@dataclass(frozen=True)
class Notice:
    """One deprecation, as data: the pytest audit groups and reports warnings by these fields.

    ``old`` and ``replacement`` are shown as written (put code in backticks); ``details`` follows them.
    ``rule`` is the ``migrate-trainer`` rule id that handles the old use ("" when none does), named in the text:
    "rewrites it" where it does (``rewrites``; None: whether the rule ever rewrites, :mod:`legacy_api.rule_effects`),
    "marks it with a TODO" where it leaves the use to its author (always when nothing replaces it).
    """

    old: str
    replacement: str
    deprecated_in: str
    removed_in: str
    details: str = ""
    rule: str = ""
    rewrites: bool | None = None

    @property
    def message(self) -> str:
        """The text users see, built by ``deprecation.DeprecatedWarning``."""
        advice = f"Use {self.replacement} instead." if self.replacement else ""
        rewrite = f"`migrate-trainer --only {self.rule}` {self.rule_effect}." if self.rule else ""
        details = " ".join(part for part in (advice, self.details, rewrite) if part)
        return str(
            deprecation.DeprecatedWarning(
                self.old, f"Lightning {self.deprecated_in}", f"{PROJECT} {self.removed_in}", details
            )
        )

    @property
    def rule_effect(self) -> str:
        """What ``rule`` does with the use: "rewrites it" or "marks it with a TODO"."""
        if self.rewrites is not None:
            return "rewrites it" if self.rewrites else "marks it with a TODO"
        # Nothing replaces the old use: no rule can rewrite it, it can only mark it.
        rewrites = bool(self.replacement) and rule_effects.rewrites(self.rule)
        return "rewrites it" if rewrites else "marks it with a TODO"


class CompatDeprecationWarning(FutureWarning):
    """Legacy Lightning API used through ``compat``. Filter this category to silence or escalate them all.

    The warning carries its :class:`Notice` as ``.notice``.
    """

    def __init__(self, notice: Notice) -> None:
        super().__init__(notice.message)
        self.notice = notice


class CompatFallbackWarning(CompatDeprecationWarning):
    """compat reproduced a Lightning 1.5 choice that newcore makes differently, or refuses."""


#: Called for every warning compat emits on rank zero, before warning filters apply (the pytest audit).
Listener = Callable[[CompatDeprecationWarning, str, int], None]
_listeners: list[Listener] = []


def add_listener(listener: Listener) -> None:
    """Call ``listener(warning, filename, lineno)`` for every compat warning from now on."""
    _listeners.append(listener)


def remove_listener(listener: Listener) -> None:
    """Stop calling ``listener`` (a no-op if it was not added)."""
    if listener in _listeners:
        _listeners.remove(listener)


#: The global rank ``compat.Runner`` gave this process while it runs the user's function (see :func:`as_rank`).
_runner_rank: int | None = None


@contextmanager
def as_rank(global_rank: int) -> Iterator[None]:
    """Treat this process as ``global_rank`` inside the block.

    Spawned and forked workers learn their rank from the strategy, not from the environment (newcore's
    launchers export nothing), so ``compat.Runner`` says it here around the user's function.
    """
    global _runner_rank
    previous, _runner_rank = _runner_rank, global_rank
    try:
        yield
    finally:
        _runner_rank = previous


def rank() -> int:
    """This process's global rank as ``compat.Runner`` or the launcher announced it (0 when not launched)."""
    if _runner_rank is not None:
        return _runner_rank
    for name in ("lightning_fabric.utilities.rank_zero", "lightning.fabric.utilities.rank_zero"):
        # Under compat.lightning the real Lightning knows the rank of a spawned worker; the environment may not.
        known = getattr(getattr(sys.modules.get(name), "rank_zero_only", None), "rank", None)
        if isinstance(known, int) and not isinstance(known, bool):
            return known
    for name in _RANK_VARIABLES:
        value = os.environ.get(name, "")
        if value.strip().lstrip("-").isdigit():
            return int(value)
    return 0


def bootstrapping() -> bool:
    """Whether multiprocessing is still rebuilding this spawned process from its parent.

    While it re-imports the main module and unpickles the target and its arguments, every compat use it
    meets already ran, and warned, in the parent. ``_inheriting`` is multiprocessing's own flag for that
    phase (its "not importing main" check reads it too); no process that never imported multiprocessing
    can be in it.
    """
    process = sys.modules.get("multiprocessing.process")
    return process is not None and bool(getattr(process.current_process(), "_inheriting", False))


def _is_internal(frame: FrameType) -> bool:
    name = frame.f_globals.get("__name__", "")
    return isinstance(name, str) and any(name == p or name.startswith(p + ".") for p in _INTERNAL_PACKAGES)


def user_frame() -> FrameType | None:
    """The innermost frame outside compat, newcore, the import machinery, Lightning, torch and the config builders
    (Hydra, OmegaConf, jsonargparse): the user's line."""
    frame: FrameType | None = sys._getframe(1)
    while frame is not None and _is_internal(frame):
        frame = frame.f_back
    return frame


def _key_in(frame: FrameType) -> str | None:
    """The config key an internal frame is building an object from: Hydra's ``_call_target`` holds it as
    ``full_key``; ``LightningCLI`` builds the Trainer from its ``trainer`` section (of the subcommand's, if any)."""
    name = str(frame.f_globals.get("__name__", ""))
    key = frame.f_locals.get("full_key")
    if name.startswith("hydra") and isinstance(key, str) and key:
        return key
    owner = frame.f_locals.get("self")
    if owner is not None and any(cls.__name__ == "LightningCLI" for cls in type(owner).__mro__):
        subcommand = getattr(owner, "subcommand", None)
        return f"{subcommand}.trainer" if isinstance(subcommand, str) and subcommand else "trainer"
    return None


def config_key() -> str | None:
    """The key of the config node being instantiated between this call and the user's line (Hydra's
    ``instantiate``, ``LightningCLI``); None when no config builds the object."""
    frame: FrameType | None = sys._getframe(1)
    while frame is not None and _is_internal(frame):
        key = _key_in(frame)
        if key is not None:
            return key
        frame = frame.f_back
    return None


def warn(notice: Notice, category: type[CompatDeprecationWarning] = CompatDeprecationWarning) -> None:
    """Emit ``notice`` at the user's line, on rank zero only, and never while a spawned worker starts.

    The location is found by walking the stack rather than by a fixed ``stacklevel``: the same alias is
    reached through module ``__getattr__``, metaclasses and properties, each a different depth away.
    """
    if rank() != 0 or bootstrapping():
        return
    key = config_key()
    if key is not None:  # the user's line is the instantiate call: name the config entry that holds the old use
        notice = dataclasses.replace(notice, details=f"{notice.details} Set in the config at `{key}`.".strip())
    warning = category(notice)
    frame = user_frame()
    if frame is None:  # only compat on the stack (e.g. a thread started inside it): nothing better to point at
        filename, lineno, module_globals = "<compat>", 0, {}
    else:
        filename, lineno, module_globals = frame.f_code.co_filename, frame.f_lineno, frame.f_globals
    for listener in list(_listeners):
        listener(warning, filename, lineno)
    registry = module_globals.setdefault("__warningregistry__", {}) if frame is not None else None
    warnings.warn_explicit(
        warning,
        category,
        filename,
        lineno,
        module=str(module_globals.get("__name__", "<compat>")),
        registry=registry,
    )
