"""A 1.x ``optimizer_step`` override on the real 2.x.

1.5 called ``optimizer_step(epoch, batch_idx, optimizer, optimizer_idx, optimizer_closure, on_tpu, using_native_amp,
using_lbfgs)``; 2.0 calls ``optimizer_step(epoch, batch_idx, optimizer, optimizer_closure)``, so an override written
for 1.x gets the closure as ``optimizer_idx`` and fails, and its ``super().optimizer_step(...)`` with eight arguments
fails in 2.x's ``LightningModule.optimizer_step``. The shim handles both sides: an override whose signature takes
``optimizer_idx`` (or more than four arguments) is called the 1.x way during a run (an instance attribute, see
:mod:`compat.lightning._epoch_end`), and ``LightningModule.optimizer_step`` takes the 1.x arguments too, each
warning once per call site.

The other hooks 1.x called with ``optimizer_idx`` (:data:`INDEXED_HOOKS`) get it back the same way when their
override still declares it; the index is the optimizer stepping now (:func:`compat.lightning._optimizers.current_index`,
0 with one optimizer).
"""

from __future__ import annotations

import functools
import importlib
import inspect
from collections.abc import Callable
from typing import Any

from compat._rows import compat_removed_in
from compat._warn import Notice, warn
from compat.lightning._optimizers import current_index, takes_index
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
    return current_index(model), closure, on_tpu, native_amp, isinstance(inner, torch.optim.LBFGS)


#: Hook -> (how many arguments 2.x passes before the place of 1.x's ``optimizer_idx``, what 1.x passed there:
#: "optimizer_idx", or "optimizer" then "optimizer_idx") for the module hooks 1.5.10 called with the index.
INDEXED_HOOKS: dict[str, tuple[int, tuple[str, ...]]] = {
    "optimizer_zero_grad": (3, ("optimizer_idx",)),  # (epoch, batch_idx, optimizer, optimizer_idx)
    "on_before_optimizer_step": (1, ("optimizer_idx",)),  # (optimizer, optimizer_idx)
    "configure_gradient_clipping": (1, ("optimizer_idx",)),  # (optimizer, optimizer_idx, gradient_clip_val, ...)
    "backward": (1, ("optimizer", "optimizer_idx")),  # (loss, optimizer, optimizer_idx, *args, **kwargs)
}


def _indexed(model: Any, name: str, own: Callable[..., Any]) -> Callable[..., Any]:
    position, inserted = INDEXED_HOOKS[name]
    notice = Notice(
        f"`{type(model).__name__}.{name}(..., optimizer_idx)`",
        f"`{name}` without `optimizer_idx` (with several optimizers: manual optimization)",
        "2.0",
        compat_removed_in("2.0"),
        rule="removed_hooks",
        rewrites=False,  # the rule leaves a TODO there
    )

    @functools.wraps(own)
    def hook(*args: Any, **kwargs: Any) -> Any:
        warn(notice)
        index = current_index(model)
        extra = tuple(index if item == "optimizer_idx" else model.trainer.optimizers[index] for item in inserted)
        return own(*args[:position], *extra, *args[position:], **kwargs)

    return hook


def override_wrapper(model: Any) -> dict[str, Callable[..., Any]]:
    """The instance attributes that call ``model``'s 1.x-declared ``optimizer_step`` and :data:`INDEXED_HOOKS`
    with 1.x's arguments (nothing for hooks declared the 2.x way)."""
    hooks = {name: getattr(model, name) for name in INDEXED_HOOKS}
    found = {name: _indexed(model, name, hook) for name, hook in hooks.items() if takes_index(hook)}
    own = model.optimizer_step
    if not legacy_signature(own):
        return found

    @functools.wraps(own)
    def optimizer_step(epoch: int, batch_idx: int, optimizer: Any, optimizer_closure: Any = None) -> Any:
        warn(NOTICE)
        return own(epoch, batch_idx, optimizer, *_legacy_arguments(model, optimizer, optimizer_closure))

    return {**found, "optimizer_step": optimizer_step}


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
