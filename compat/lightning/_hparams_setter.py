"""The ``hparams`` setter of 1.2 (``self.hparams = hparams`` in a LightningModule), on the real 2.x.

1.1 deprecated it and 1.3 removed it; 2.x raises AttributeError at the assignment, as the module is built. 1.2.10's
setter ran ``_set_hparams`` (a dict became an AttributeDict, an argparse Namespace its ``vars``) and recorded the
name of the ``__init__`` argument holding the value, which ``load_from_checkpoint`` passes the saved values back
under. ``save_hyperparameters(value, frame=<the assigning frame>, logger=False)`` does both on 2.x, which the
shim's setter calls, warning once per call site with rule ``hparams_setter``'s rewrite.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any

from compat._rows import compat_removed_in
from compat._warn import Notice, warn
from compat.lightning._patch import PatchLog

NOTICE = Notice(
    "`self.hparams = ...`",
    "`self.save_hyperparameters(..., logger=False)` in `__init__`",
    "1.1",
    compat_removed_in("1.3"),
    rule="hparams_setter",
    rewrites=True,
)


def _setter(self: Any, value: Any) -> None:
    """1.2: keep ``value`` as the module's hyperparameters, under the name of the ``__init__`` argument holding it."""
    warn(NOTICE)
    self.save_hyperparameters(value, frame=inspect.currentframe().f_back, logger=False)  # type: ignore[union-attr]


def install_hparams_setter(root: str, log: PatchLog) -> None:
    """Give ``<root>``'s ``HyperparametersMixin.hparams`` (LightningModule's and LightningDataModule's) 1.2's setter."""
    mixin = importlib.import_module(f"{root}.core.mixins.hparams_mixin").HyperparametersMixin
    current = mixin.__dict__.get("hparams")
    if not isinstance(current, property) or current.fset is not None:
        return
    log.set_attr(mixin, "hparams", property(current.fget, _setter, current.fdel, current.__doc__))
