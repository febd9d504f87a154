"""A 1.x ``optimizer_step`` override on the real 2.x.

1.5 called ``optimizer_step(epoch, batch_idx, optimizer, optimizer_idx, optimizer_closure, on_tpu, using_native_amp,
using_lbfgs)``; 2.0 calls ``optimizer_step(epoch, batch_idx, optimizer, optimizer_closure)``, so an override written
for 1.x gets the closure as ``optimizer_idx`` and fails, and its ``super().optimizer_step(...)`` with eight arguments
fails in 2.x's ``LightningModule.optimizer_step``. The shim handles both sides: an override whose signature takes
``optimizer_idx`` (or more than four arguments) is called the 1.x way during a run (an instance attribute, see
:mod:`compat.lightning._epoch_end`), and ``LightningModule.optimizer_step`` takes the 1.x arguments too, each
warning once per call site.
"""

from __future__ import annotations

import functools
import importlib
import inspect
from collections.abc import Callable
from typing import Any

from compat._rows import compat_removed_in
from compat._warn import Notice, warn
from compat.lightning._patch import PatchLog

#: 1.x's parameters after ``optimizer``, in order (1.5.10's ``LightningModule.optimizer_step``).
LEGACY_PARAMETERS = ("optimizer_idx", "optimizer_closure", "on_tpu", "using_native_amp", "using_lbfgs")
NOTICE = Notice(
    "`optimizer_step(epoch, batch_idx, optimizer, optimizer_idx, optimizer_closure, on_tpu, using_native_amp, "
    "using_lbfgs)`",
    "`optimizer_step(self, epoch, batch_idx, optimizer, optimizer_closure)`",
    "2.0",
    compat_removed_in("2.0"),
    rule="removed_hooks",
)


def legacy_signature(method: Callable[..., Any]) -> bool:
    """Whether a (bound) ``optimizer_step`` is declared the 1.x way."""
    parameters = inspect.signature(method).parameters
    positional = [p for p in parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return "optimizer_idx" in parameters or len(positional) > 4


def _legacy_arguments(model: Any, optimizer: Any, closure: Any) -> tuple[Any, ...]:
    import torch

    trainer = model._trainer
    inner = getattr(optimizer, "optimizer", optimizer)  # a LightningOptimizer wraps the torch one
    on_tpu = type(trainer.accelerator).__name__ == "XLAAccelerator"
    native_amp = str(trainer.precision) in ("16-mixed", "bf16-mixed")
    return 0, closure, on_tpu, native_amp, isinstance(inner, torch.optim.LBFGS)


def override_wrapper(model: Any) -> dict[str, Callable[..., Any]]:
    """``{"optimizer_step": wrapper}`` when ``model`` overrides it the 1.x way, else nothing."""
    own = model.optimizer_step
    if not legacy_signature(own):
        return {}

    @functools.wraps(own)
    def optimizer_step(epoch: int, batch_idx: int, optimizer: Any, optimizer_closure: Any = None) -> Any:
        warn(NOTICE)
        return own(epoch, batch_idx, optimizer, *_legacy_arguments(model, optimizer, optimizer_closure))

    return {"optimizer_step": optimizer_step}


def _base_step(original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def optimizer_step(self: Any, epoch: int, batch_idx: int, optimizer: Any, *args: Any, **kwargs: Any) -> Any:
        legacy = len(args) > 1 or any(name in kwargs for name in LEGACY_PARAMETERS if name != "optimizer_closure")
        if not legacy:
            return original(self, epoch, batch_idx, optimizer, *args, **kwargs)
        warn(NOTICE)
        given = dict(zip(LEGACY_PARAMETERS, args, strict=False)) | kwargs
        return original(self, epoch, batch_idx, optimizer, given.get("optimizer_closure"))

    return optimizer_step


def install_optimizer_step(root: str, log: PatchLog) -> None:
    """Let ``<root>.LightningModule.optimizer_step`` take 1.x's arguments (a 1.x override's ``super()`` call)."""
    module = importlib.import_module(root).LightningModule
    log.set_attr(module, "optimizer_step", _base_step(module.__dict__["optimizer_step"]))
