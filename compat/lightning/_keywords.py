"""1.5 keyword arguments that later releases renamed: ``trainer.test(test_dataloaders=...)``, ``trainer.fit(model,
train_dataloader=...)``, ``ModelCheckpoint(every_n_val_epochs=...)``.

The rows are ``legacy_api.keywords.RENAMED``; each owner (``Trainer.<method>`` or a class's public path, whose
``__init__`` is meant) gets a wrapper that passes the old keyword under its new name, warning once per call site.
1.5.10 took the old keyword when both were given (``train_dataloaders = train_dataloader``), and so does the shim.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from typing import Any

from compat._rows import compat_removed_in
from compat._warn import Notice, warn
from compat.lightning._patch import PatchLog
from legacy_api.keywords import RENAMED
from legacy_api.renames import PL

#: RENAMED's note: each old keyword was deprecated in 1.4 and gone in 1.6.
DEPRECATED_IN, REMOVED_IN = "1.4", "1.6"
RULE = "removed_keywords"


def _owner(root: str, owner: str) -> tuple[Any, str, str]:
    """(what holds the callable, its attribute name, how the notice names the call) for a RENAMED owner on ``root``:
    ``Trainer.<method>``, a class (its ``__init__``), a class's method (``LightningModule.log``) or a module's
    function (``utilities.model_helpers.is_overridden``)."""
    if owner.startswith("Trainer."):
        return importlib.import_module(root).Trainer, owner.partition(".")[2], owner
    parts = owner.removeprefix(f"{PL}.").split(".")
    for split in range(len(parts), -1, -1):
        try:
            holder: Any = importlib.import_module(".".join([root, *parts[:split]]))
        except ImportError:
            continue
        for name in parts[split:-1]:
            holder = getattr(holder, name)
        last = parts[-1]
        target = getattr(holder, last)
        if isinstance(target, type):
            return target, "__init__", last
        return holder, last, ".".join(parts[-2:]) if isinstance(holder, type) else last
    raise ImportError(owner)


def _wrap(original: Callable[..., Any], spelled: str, renames: dict[str, str]) -> Callable[..., Any]:
    notices = {
        old: Notice(
            f"`{spelled}({old}=...)`",
            f"`{spelled}({new}=...)`",
            DEPRECATED_IN,
            compat_removed_in(REMOVED_IN),
            rule=RULE,
        )
        for old, new in renames.items()
    }

    @functools.wraps(original)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        for old, new in renames.items():
            if old in kwargs:
                warn(notices[old])
                kwargs[new] = kwargs.pop(old)
        return original(*args, **kwargs)

    return wrapper


def install_keywords(root: str, log: PatchLog) -> None:
    """Wrap each owner of a RENAMED row on ``root`` (one wrapper per method, all its rows)."""
    by_owner: dict[str, dict[str, str]] = {}
    for (owner, old), new in sorted(RENAMED.items()):
        by_owner.setdefault(owner, {})[old] = new
    for owner, renames in by_owner.items():
        holder, name, spelled = _owner(root, owner)
        original = holder.__dict__.get(name) if isinstance(holder, type) else getattr(holder, name, None)
        if original is None:
            continue  # Trainer.tune: 2.0 removed the method itself
        log.set_attr(holder, name, _wrap(original, spelled, renames))
