"""A ``Callback`` whose batch hooks still take ``dataloader_idx`` (``on_train_batch_end(self, trainer, pl_module,
outputs, batch, batch_idx, dataloader_idx)``), as 1.5 called them.

1.5.10's ``TrainerCallbackHookMixin`` passed ``0`` to a training batch hook whose signature names ``dataloader_idx``
explicitly; 2.x passes five arguments and such a hook raises ``TypeError`` at the first batch. While a Trainer runs,
each such bound hook is replaced on the callback instance by one that adds the ``0`` (warning once per callback
class), and removed after the run.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from compat._rows import compat_removed_in
from compat._warn import Notice, warn
from compat.lightning._patch import PatchLog

#: The training batch hooks 1.5 passed ``dataloader_idx=0`` to, with the parameters 2.x passes.
HOOKS = {
    "on_train_batch_start": "on_train_batch_start(self, trainer, pl_module, batch, batch_idx)",
    "on_train_batch_end": "on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx)",
}


def _takes_index(hook: Callable[..., Any]) -> bool:
    try:
        parameters = inspect.signature(hook).parameters
    except (TypeError, ValueError):
        return False
    return "dataloader_idx" in parameters


def _adapted(callback: Any, name: str, hook: Callable[..., Any]) -> Callable[..., Any]:
    notice = Notice(
        f"`{type(callback).__name__}.{name}(..., dataloader_idx)`",
        f"`{HOOKS[name]}`",
        "2.0",
        compat_removed_in("2.0"),
        details="1.5 passed dataloader_idx=0 to the training batch hooks; 2.x passes none.",
        rule="removed_hooks",
    )

    @functools.wraps(hook)
    def adapted(*args: Any, **kwargs: Any) -> Any:
        warn(notice)
        if "dataloader_idx" not in kwargs:
            kwargs["dataloader_idx"] = 0
        return hook(*args, **kwargs)

    return adapted


@contextmanager
def adapted_callbacks(callbacks: list[Any]) -> Iterator[None]:
    """``callbacks`` with their 1.x training batch hooks adapted for the duration (then exactly as before)."""
    added: list[tuple[Any, str]] = []
    for callback in callbacks:
        for name in HOOKS:
            hook = getattr(callback, name, None)
            if hook is not None and name not in vars(callback) and _takes_index(hook):
                setattr(callback, name, _adapted(callback, name, hook))
                added.append((callback, name))
    try:
        yield
    finally:
        for callback, name in added:
            vars(callback).pop(name, None)


def _run(original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def run(self: Any, *args: Any, **kwargs: Any) -> Any:
        with adapted_callbacks(list(getattr(self, "callbacks", []))):
            return original(self, *args, **kwargs)

    return run


def install_callback_hooks(trainer: Any, log: PatchLog) -> None:
    """Wrap ``Trainer._run`` so the callbacks of each run get their 1.x batch hooks adapted."""
    log.set_attr(trainer, "_run", _run(trainer.__dict__["_run"]))
