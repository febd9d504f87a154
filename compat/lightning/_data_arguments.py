"""The 1.5 Trainer arguments about data, applied where 2.x prepares and loads it (the values as the user passed them
are on the trainer: ``compat.lightning._trainer.GIVEN``; :mod:`._trainer_arguments` warns for them).

* ``prepare_data_per_node=x``: 1.5.10's ``DataConnector.prepare_data`` raised when the flag disagreed with the
  data module's or the LightningModule's own attribute, which is what decided (2.x reads only the attributes);
* ``multiple_trainloader_mode=m``: 1.5.10's ``reset_train_dataloader`` combined the train loaders in that mode
  (``CombinedLoader(loaders, m)``); 2.x's fit loop always asks for ``"max_size_cycle"``. The shim passes ``m``
  to the CombinedLoader the fit loop builds, and to no other (one the user builds keeps its own mode).
"""

from __future__ import annotations

import contextvars
import functools
import importlib
import sys
from collections.abc import Callable
from typing import Any

from compat.lightning._patch import PatchLog
from compat.lightning._trainer import GIVEN

#: The train-loader mode of the trainer whose fit loop is setting up its data (None: 2.x's own).
_MODE: contextvars.ContextVar[str | None] = contextvars.ContextVar("compat_lightning_train_mode", default=None)


def _given(trainer: Any, name: str) -> Any:
    return trainer.__dict__.get(GIVEN, {}).get(name)


def _wrap_prepare_data(original: Callable[..., None]) -> Callable[..., None]:
    @functools.wraps(original)
    def prepare_data(self: Any) -> None:
        trainer = self.trainer
        flag = _given(trainer, "prepare_data_per_node")
        holders = (("DataModule", trainer.datamodule), ("LightningModule", trainer.lightning_module))
        for what, holder in holders if flag is not None else ():
            if holder is not None and holder.prepare_data_per_node != flag:
                from lightning_fabric.utilities.exceptions import MisconfigurationException

                raise MisconfigurationException(
                    "Inconsistent settings found for `prepare_data_per_node`."
                    f" Value was set with both `Trainer(prepare_data_per_node={flag}.)`"
                    f" and `{what}.prepare_data_per_node={holder.prepare_data_per_node}`."
                    f" Move `prepare_data_per_node` setting to {what} property."
                )
        original(self)

    return prepare_data


def _wrap_setup_data(original: Callable[..., None]) -> Callable[..., None]:
    @functools.wraps(original)
    def setup_data(self: Any) -> None:
        token = _MODE.set(_given(self.trainer, "multiple_trainloader_mode"))
        try:
            original(self)
        finally:
            _MODE.reset(token)

    return setup_data


def _wrap_combined_init(original: Callable[..., None], fit_loop: str) -> Callable[..., None]:
    @functools.wraps(original)
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        mode = _MODE.get()
        if mode is not None and sys._getframe(1).f_globals.get("__name__") == fit_loop:
            if len(args) >= 2:
                args = (args[0], mode, *args[2:])
            else:
                kwargs["mode"] = mode
        original(self, *args, **kwargs)

    return __init__


def install_data_arguments(root: str, log: PatchLog) -> None:
    """Wrap 2.x's ``_DataConnector.prepare_data``, ``_FitLoop.setup_data`` and ``CombinedLoader.__init__``."""
    connector = importlib.import_module(f"{root}.trainer.connectors.data_connector")._DataConnector
    log.set_attr(connector, "prepare_data", _wrap_prepare_data(connector.__dict__["prepare_data"]))
    fit_loop = importlib.import_module(f"{root}.loops.fit_loop")
    loop = fit_loop._FitLoop
    log.set_attr(loop, "setup_data", _wrap_setup_data(loop.__dict__["setup_data"]))
    combined = importlib.import_module(f"{root}.utilities.combined_loader").CombinedLoader
    log.set_attr(combined, "__init__", _wrap_combined_init(combined.__dict__["__init__"], fit_loop.__name__))
