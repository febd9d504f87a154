"""``LightningDataModule.size()``, ``dims`` and the ``*_transforms`` properties, which 1.7 removed, on the real 2.x.

1.5.10's ``core/datamodule.py``: ``dims`` and ``train_transforms``/``val_transforms``/``test_transforms`` were
properties over ``_dims`` (default ``()``) and ``_train_transforms``... (default None), and ``size(dim=None)``
returned ``dims`` or ``dims[dim]``. The shim gives 2.x's class the same members while installed (a data module that
sets ``self.dims = (1, 28, 28)`` and calls ``dm.size()``, as lightning-tutorials' basic-gan does, works again);
each use warns once per call site with the replacement from ``legacy_api.removed_members``.

A data module's ``on_save_checkpoint(checkpoint)``/``on_load_checkpoint(checkpoint)`` (1.5.10's checkpoint
connector called them after the module's, and in ``restore_datamodule``; 2.x calls only ``state_dict`` and
``load_state_dict``) run again at those points, warning once per class (rule ``removed_hooks``).
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from typing import Any, cast

from compat._rows import compat_removed_in
from compat._warn import Notice, warn
from compat.lightning._legacy_callbacks import _notice as _hook_notice
from compat.lightning._patch import PatchLog
from legacy_api.removed_members import MEMBERS, removed_in

OWNER = "pytorch_lightning.LightningDataModule"
#: Property -> its default when never set (1.5.10's ``LightningDataModule.__init__``).
#: The 1.x data-module hooks this module runs.
SERVED = frozenset({"on_save_checkpoint", "on_load_checkpoint"})
PROPERTIES: dict[str, Any] = {"dims": (), "train_transforms": None, "val_transforms": None, "test_transforms": None}


def _notice(attr: str) -> Notice:
    member = next(m for m in MEMBERS if m.owner == OWNER and m.attr == attr)
    removed = removed_in(OWNER, attr) or "1.7"
    return Notice(
        f"`LightningDataModule.{attr}`", member.instead, "1.5", compat_removed_in(removed), rule="removed_members"
    )


def _property(attr: str, default: Any) -> property:
    notice = _notice(attr)

    def getter(self: Any) -> Any:
        warn(notice)
        return self.__dict__.get(f"_{attr}", default)

    def setter(self: Any, value: Any) -> None:
        warn(notice)
        self.__dict__[f"_{attr}"] = value

    made = property(getter, setter, doc=f"Lightning 1.5's LightningDataModule.{attr} (removed in 1.7).")
    _OURS.append(made)
    return made


#: The properties this module made: ``size()`` reads ``_dims`` behind them without a second warning.
_OURS: list[property] = []


def _dims(datamodule: Any) -> Any:
    """What 1.5.10's ``size()`` read as ``self.dims``: behind the shim's property, ``_dims``; where a subclass shadows
    it (bolts' ``dims = (3, 32, 32)`` class attribute, then maybe ``self.dims = ...`` into the instance), that."""
    found = next((vars(cls)["dims"] for cls in type(datamodule).__mro__ if "dims" in vars(cls)), None)
    if any(found is ours for ours in _OURS):
        return datamodule.__dict__.get("_dims", PROPERTIES["dims"])
    return datamodule.dims


def _size() -> Callable[..., Any]:
    notice = _notice("size")

    def size(self: Any, dim: int | None = None) -> Any:
        """1.5: the shape of the data (``dims``), or its ``dim``-th entry."""
        warn(notice)
        dims = _dims(self)
        return dims if dim is None else dims[dim]

    return size


def _legacy_hook(datamodule: Any, base: type, name: str) -> Callable[..., Any] | None:
    if datamodule is None or not callable(getattr(type(datamodule), name, None)) or hasattr(base, name):
        return None
    warn(_hook_notice(datamodule, "LightningDataModule", name))
    return cast(Callable[..., Any], getattr(datamodule, name))


def _wrap_dump(original: Callable[..., Any], base: type) -> Callable[..., Any]:
    @functools.wraps(original)
    def dump_checkpoint(self: Any, weights_only: bool | None = None) -> Any:
        checkpoint = original(self, weights_only)
        hook = None if weights_only else _legacy_hook(self.trainer.datamodule, base, "on_save_checkpoint")
        if hook is not None:
            hook(checkpoint)  # 1.5: after the LightningModule's on_save_checkpoint
        return checkpoint

    return dump_checkpoint


def _wrap_restore(original: Callable[..., Any], base: type) -> Callable[..., Any]:
    @functools.wraps(original)
    def restore_datamodule(self: Any) -> None:
        original(self)
        hook = _legacy_hook(self.trainer.datamodule, base, "on_load_checkpoint") if self._loaded_checkpoint else None
        if hook is not None:
            hook(self._loaded_checkpoint)

    return restore_datamodule


def install_datamodule(root: str, log: PatchLog) -> None:
    """Give ``<root>.LightningDataModule`` the 1.5 members it lacks, and the checkpoint connector its calls of the
    data module's 1.5 checkpoint hooks."""
    module = importlib.import_module(root).LightningDataModule
    connector = importlib.import_module(f"{root}.trainer.connectors.checkpoint_connector")._CheckpointConnector
    log.set_attr(connector, "dump_checkpoint", _wrap_dump(connector.__dict__["dump_checkpoint"], module))
    log.set_attr(connector, "restore_datamodule", _wrap_restore(connector.__dict__["restore_datamodule"], module))
    for attr, default in PROPERTIES.items():
        if not hasattr(module, attr):
            log.set_attr(module, attr, _property(attr, default))
    if not hasattr(module, "size"):
        log.set_attr(module, "size", _size())
