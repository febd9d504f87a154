"""A ``Callback`` or LightningModule whose training batch hooks still require ``dataloader_idx``
(``on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx, dataloader_idx)``), as 1.5 called them.

1.5.10's ``TrainerCallbackHookMixin`` and training epoch loop passed ``0`` to a training batch hook whose signature
names ``dataloader_idx`` explicitly (``legacy_api.hooks.CONSTANT_ARGUMENTS``); 2.x passes fewer arguments and such a
hook raises ``TypeError`` at the first batch. While a Trainer runs, each such bound hook is replaced on the
instance by one that adds the ``0`` (warning once per class), and removed after the run. A hook that has a default
for it (what ``migrate-trainer`` writes: ``dataloader_idx=0``) is left alone.
"""

from __future__ import annotations

import ast
import functools
import inspect
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from compat._rows import compat_removed_in
from compat._warn import Notice, warn
from compat.lightning._patch import PatchLog
from legacy_api.hooks import CONSTANT_ARGUMENTS, signature
from legacy_api.surface import RELEASES

_NEWEST = RELEASES[-1]


def _hooks(base: str) -> dict[str, dict[str, Any]]:
    """``base``'s hooks whose 1.x arguments never varied (``legacy_api.hooks.CONSTANT_ARGUMENTS``): hook -> {parameter:
    the value 1.x passed}."""
    return {
        hook: {name: ast.literal_eval(value) for name, value in given.items()}
        for (owner, hook), given in CONSTANT_ARGUMENTS.items()
        if owner == base
    }


def _requires(hook: Callable[..., Any], names: dict[str, Any]) -> bool:
    """Whether ``hook`` requires one of ``names`` (one with a default runs as 2.x calls it)."""
    try:
        parameters = inspect.signature(hook).parameters
    except (TypeError, ValueError):
        return False
    return any(name in parameters and parameters[name].default is inspect.Parameter.empty for name in names)


def _adapted(owner: Any, base: str, name: str, hook: Callable[..., Any], given: dict[str, Any]) -> Callable[..., Any]:
    passed = ", ".join(f"{key}={value!r}" for key, value in given.items())
    notice = Notice(
        f"`{type(owner).__name__}.{name}(..., {', '.join(given)})`",
        f"`{name}{signature(_NEWEST, base, name)}` (or `{passed}`: `migrate-trainer` writes that default)",
        "2.0",
        compat_removed_in("2.0"),
        details=f"1.5 passed {passed} to the training batch hooks; 2.x passes none.",
        rule="removed_hooks",
    )

    @functools.wraps(hook)
    def adapted(*args: Any, **kwargs: Any) -> Any:
        warn(notice)
        return hook(*args, **{**given, **kwargs})

    return adapted


@contextmanager
def adapted_callbacks(callbacks: list[Any], module: Any = None) -> Iterator[None]:
    """``callbacks`` (and ``module``) with their 1.x training batch hooks adapted for the duration (then exactly as
    before)."""
    added: list[tuple[Any, str]] = []
    owners = [(callback, "Callback") for callback in callbacks] + (
        [(module, "LightningModule")] if module is not None else []
    )
    for owner, base in owners:
        for name, given in _hooks(base).items():
            hook = getattr(owner, name, None)
            if hook is not None and name not in vars(owner) and _requires(hook, given):
                setattr(owner, name, _adapted(owner, base, name, hook, given))
                added.append((owner, name))
    try:
        yield
    finally:
        for owner, name in added:
            vars(owner).pop(name, None)


def _run(original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def run(self: Any, model: Any, *args: Any, **kwargs: Any) -> Any:
        with adapted_callbacks(list(getattr(self, "callbacks", [])), model):
            return original(self, model, *args, **kwargs)

    return run


def install_callback_hooks(trainer: Any, log: PatchLog) -> None:
    """Wrap ``Trainer._run`` so the callbacks of each run get their 1.x batch hooks adapted."""
    log.set_attr(trainer, "_run", _run(trainer.__dict__["_run"]))
