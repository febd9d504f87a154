"""A ``Callback`` or LightningModule whose training batch hooks still require ``dataloader_idx``
(``on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx, dataloader_idx)``), as 1.5 called them.

1.5.10's ``TrainerCallbackHookMixin`` and training epoch loop passed ``0`` to a training batch hook whose signature
names ``dataloader_idx`` explicitly (``legacy_api.hooks.CONSTANT_ARGUMENTS``); 2.x passes fewer arguments and such a
hook raises ``TypeError`` at the first batch. While a Trainer runs, each such bound hook is replaced on the
instance by one that adds the ``0`` (warning once per class), and removed after the run. A hook that has a default
for it (what ``migrate-trainer`` writes: ``dataloader_idx=0``) is left alone.
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

#: The training batch hooks 1.5 passed ``dataloader_idx=0`` to, with the parameters 2.x passes (a callback's, a
#: module's).
HOOKS = {
    "on_train_batch_start": "on_train_batch_start(self, trainer, pl_module, batch, batch_idx)",
    "on_train_batch_end": "on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx)",
}
MODULE_HOOKS = {
    "on_train_batch_start": "on_train_batch_start(self, batch, batch_idx)",
    "on_train_batch_end": "on_train_batch_end(self, outputs, batch, batch_idx)",
}


def _takes_index(hook: Callable[..., Any]) -> bool:
    """Whether ``hook`` requires ``dataloader_idx`` (one with a default runs as 2.x calls it)."""
    try:
        parameters = inspect.signature(hook).parameters
    except (TypeError, ValueError):
        return False
    parameter = parameters.get("dataloader_idx")
    return parameter is not None and parameter.default is inspect.Parameter.empty


def _adapted(callback: Any, name: str, hook: Callable[..., Any], hooks: dict[str, str]) -> Callable[..., Any]:
    notice = Notice(
        f"`{type(callback).__name__}.{name}(..., dataloader_idx)`",
        f"`{hooks[name]}` (or `dataloader_idx=0`: `migrate-trainer` writes that default)",
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
def adapted_callbacks(callbacks: list[Any], module: Any = None) -> Iterator[None]:
    """``callbacks`` (and ``module``) with their 1.x training batch hooks adapted for the duration (then exactly as
    before)."""
    added: list[tuple[Any, str]] = []
    owners = [(callback, HOOKS) for callback in callbacks] + ([(module, MODULE_HOOKS)] if module is not None else [])
    for callback, hooks in owners:
        for name in hooks:
            hook = getattr(callback, name, None)
            if hook is not None and name not in vars(callback) and _takes_index(hook):
                setattr(callback, name, _adapted(callback, name, hook, hooks))
                added.append((callback, name))
    try:
        yield
    finally:
        for callback, name in added:
            vars(callback).pop(name, None)


def _run(original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def run(self: Any, model: Any, *args: Any, **kwargs: Any) -> Any:
        with adapted_callbacks(list(getattr(self, "callbacks", [])), model):
            return original(self, model, *args, **kwargs)

    return run


def install_callback_hooks(trainer: Any, log: PatchLog) -> None:
    """Wrap ``Trainer._run`` so the callbacks of each run get their 1.x batch hooks adapted."""
    log.set_attr(trainer, "_run", _run(trainer.__dict__["_run"]))
