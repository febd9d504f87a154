"""``trainer.tune(model, ...)`` (removed in 2.0) with ``Trainer(auto_scale_batch_size=..., auto_lr_find=...)``, on
2.x's ``Tuner``.

1.5.10's ``Tuner._tune``: the batch-size scaling first when ``auto_scale_batch_size`` is set (a string is its
``mode``), then the learning-rate finder when ``auto_lr_find`` is set (``update_attr=True``; a string names the
attribute), returning ``{"scale_batch_size": new_size, "lr_find": lr_finder}`` for what ran. 2.x's
``Tuner(trainer).scale_batch_size``/``.lr_find`` take the same arguments. The flags did nothing without
``tune()`` in 1.5; :mod:`._trainer_arguments` accepts them and they stay on the trainer (``GIVEN``).

The routines are 2.x's, and not 1.5's to the number (compared on real 1.5.10 with a program of ours): 2.x's
power scaling counts ``max_trials`` from the first size tried (1.5: 2 -> 16 in 3 trials, 2.x: 2 -> 8) and does not
stop at the dataset's length (1.5 capped 64 at 48 samples). The notice says so.
"""

from __future__ import annotations

import importlib
from typing import Any

from compat._rows import compat_removed_in
from compat._warn import Notice, warn
from compat.lightning._patch import PatchLog
from compat.lightning._trainer import GIVEN

_NOTICE = Notice(
    "`trainer.tune(model, ...)`",
    "`Tuner(trainer).scale_batch_size(model, ...)` / `Tuner(trainer).lr_find(model, ...)` (pytorch_lightning.tuner)",
    "1.9",
    compat_removed_in("2.0"),
    "The shim runs 2.x's Tuner: its batch-size scaling counts max_trials from the first size and does not stop at "
    "the dataset's length as 1.5's did.",
    rule="removed_attributes",
)


def _tune(root: str) -> Any:
    def tune(
        self: Any,
        model: Any,
        train_dataloaders: Any = None,
        val_dataloaders: Any = None,
        datamodule: Any = None,
        scale_batch_size_kwargs: dict[str, Any] | None = None,
        lr_find_kwargs: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """1.5: run the tuning routines the Trainer's flags ask for, before training."""
        warn(_NOTICE)
        package = importlib.import_module(root)
        if isinstance(train_dataloaders, package.LightningDataModule):
            datamodule, train_dataloaders = train_dataloaders, None
        given = self.__dict__.get(GIVEN, {})
        tuner = importlib.import_module(f"{root}.tuner").Tuner(self)
        data = {"train_dataloaders": train_dataloaders, "val_dataloaders": val_dataloaders, "datamodule": datamodule}
        result: dict[str, Any] = {}
        scale = given.get("auto_scale_batch_size")
        if scale:
            kwargs = dict(scale_batch_size_kwargs or {})
            if isinstance(scale, str):
                kwargs.setdefault("mode", scale)
            result["scale_batch_size"] = tuner.scale_batch_size(model, **data, **kwargs)
        find = given.get("auto_lr_find")
        if find:
            kwargs = dict(lr_find_kwargs or {})
            kwargs.setdefault("update_attr", True)
            if isinstance(find, str):
                kwargs.setdefault("attr_name", find)
            result["lr_find"] = tuner.lr_find(model, **data, **kwargs)
        return result

    return tune


def install_tune(root: str, trainer: Any, log: PatchLog) -> None:
    """Give the 2.x Trainer 1.5's ``tune``."""
    if not hasattr(trainer, "tune"):
        log.set_attr(trainer, "tune", _tune(root))
