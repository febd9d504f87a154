"""A 1.x hook that neither Lightning 2.x nor the shim calls warns when a Trainer runs it (no silent fallback).

Most 1.x hooks 2.x dropped run again under the shim (:mod:`._epoch_end`, :mod:`._epoch_hooks`,
:mod:`._legacy_callbacks`, :mod:`._optimizers`). The rest (``on_train_dataloader``, ``on_hpc_save``,
``tbptt_split_batch``, ``add_to_queue``, ...) are defined in the user's class and never called: 1.5 code that relied on
them runs on without them. So when ``Trainer._run`` starts, each such hook of the module, its data module and its
callbacks warns once per class, at the user's ``fit``/``validate``/``test``/``predict`` call, naming what replaced it
(:data:`legacy_api.hooks.SUCCESSORS`) and rule ``removed_hooks``, which marks it with a TODO.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any

from compat._rows import compat_removed_in
from compat._warn import Notice, warn
from compat.lightning import _datamodule, _epoch_end, _epoch_hooks, _legacy_callbacks
from compat.lightning._patch import PatchLog
from legacy_api.hooks import SUCCESSORS, legacy_hooks, removed_in

#: Base short name -> the 1.x hooks the shim runs itself (each module that serves one says which).
SERVED: dict[str, frozenset[str]] = {
    "LightningModule": _epoch_end.SERVED | _epoch_hooks.SERVED | _legacy_callbacks.MODULE_TOO,
    "Callback": _epoch_hooks.SERVED | _legacy_callbacks.SERVED,
    "LightningDataModule": _datamodule.SERVED,
}
_NOTHING = "nothing: Lightning 2.x never calls it"


def _bases(root: Any) -> dict[str, type]:
    return {
        "LightningModule": root.LightningModule,
        "Callback": root.Callback,
        "LightningDataModule": root.LightningDataModule,
    }


def _own(cls: type, name: str) -> bool:
    """Whether ``name`` is defined by the user's side of ``cls``'s MRO (not by Lightning or the shim)."""
    for klass in cls.__mro__:
        if name in klass.__dict__:
            module = klass.__module__ or ""
            return not module.startswith(("pytorch_lightning", "lightning", "compat."))
    return False


def unserved(owner: Any, base: str, base_class: type) -> Iterator[str]:
    """The 1.x hooks ``owner``'s class defines that the 2.x ``base_class`` lacks and the shim does not call."""
    for name in sorted(legacy_hooks(base) - SERVED.get(base, frozenset())):
        if not hasattr(base_class, name) and callable(getattr(type(owner), name, None)) and _own(type(owner), name):
            yield name


def _notice(owner: Any, base: str, name: str) -> Notice:
    removed = removed_in(base, name) or "2.0"
    return Notice(
        f"`{type(owner).__name__}.{name}` (Lightning 2.x and compat.lightning never call it)",
        SUCCESSORS.get((base, name), _NOTHING),
        removed,
        compat_removed_in(removed),
        rule="removed_hooks",
        rewrites=False,
    )


def check(trainer: Any, model: Any, root: Any) -> None:
    """Warn for each unserved 1.x hook of ``model``, its data module and the trainer's callbacks."""
    bases = _bases(root)
    owners: list[tuple[Any, str]] = [(model, "LightningModule")]
    datamodule = getattr(trainer, "datamodule", None)
    if datamodule is not None:
        owners.append((datamodule, "LightningDataModule"))
    owners.extend((callback, "Callback") for callback in getattr(trainer, "callbacks", []) or [])
    for owner, base in owners:
        if owner is None:
            continue
        for name in unserved(owner, base, bases[base]):
            warn(_notice(owner, base, name))


def _run(original: Callable[..., Any], root: Any) -> Callable[..., Any]:
    @functools.wraps(original)
    def run(self: Any, model: Any, *args: Any, **kwargs: Any) -> Any:
        check(self, model, root)
        return original(self, model, *args, **kwargs)

    return run


def install_unserved_hooks(root: Any, trainer: type, log: PatchLog) -> None:
    """Wrap ``Trainer._run`` (``root``: the imported Lightning package)."""
    log.set_attr(trainer, "_run", _run(trainer.__dict__["_run"], root))
