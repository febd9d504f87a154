"""A ``Callback`` or LightningModule whose batch hooks still require ``dataloader_idx``
(``on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx, dataloader_idx)``), as 1.5 called them.

1.5.10's ``TrainerCallbackHookMixin`` and training epoch loop passed ``0`` to a training batch hook whose signature
names ``dataloader_idx`` explicitly (``legacy_api.hooks.CONSTANT_ARGUMENTS``); 2.x passes fewer arguments and such a
hook raises ``TypeError`` at the first batch. Its evaluation and prediction loops passed the index to those batch
hooks always, 0 with one dataloader; 2.x passes it only with several (``legacy_api.hooks.OPTIONAL_ARGUMENTS``), and
with one raises (a RuntimeError for the module's hook, a TypeError for a callback's). While a Trainer runs, each such
bound hook is replaced on the instance by one that adds the 1.x value where 2.x passes none (warning once per class),
and removed after the run; its signature shows the value as the default, as 2.x's check of the module's hooks reads
it. A hook that has a default for it (what ``migrate-trainer`` writes: ``dataloader_idx=0``) is left alone.
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
from legacy_api.hooks import CONSTANT_ARGUMENTS, OPTIONAL_ARGUMENTS, default_arguments, signature
from legacy_api.renames import version_tuple
from legacy_api.surface import RELEASES

_NEWEST = RELEASES[-1]


def _hooks(base: str) -> dict[str, dict[str, Any]]:
    """``base``'s hooks that 1.x passed a value 2.x may leave out (``legacy_api.hooks.default_arguments``): hook ->
    {parameter: the value 1.x passed}."""
    target = version_tuple(_NEWEST)
    hooks = [hook for owner, hook in (*CONSTANT_ARGUMENTS, *OPTIONAL_ARGUMENTS) if owner == base]
    given = {hook: default_arguments(base, hook, target) for hook in hooks}
    return {
        hook: {name: ast.literal_eval(value) for name, value in values.items()}
        for hook, values in given.items()
        if values
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
    when = (
        "to the training batch hooks; 2.x passes none"
        if (base, name) in CONSTANT_ARGUMENTS
        else "to the evaluation and prediction batch hooks with one dataloader; 2.x passes it only with several"
    )
    notice = Notice(
        f"`{type(owner).__name__}.{name}(..., {', '.join(given)})`",
        f"`{name}{signature(_NEWEST, base, name)}` (or `{passed}`: `migrate-trainer` writes that default)",
        "2.0",
        compat_removed_in("2.0"),
        details=f"1.5 passed {passed} {when}.",
        rule="removed_hooks",
    )
    original = inspect.signature(hook)
    positions = {key: index for index, key in enumerate(original.parameters)}

    @functools.wraps(hook)
    def adapted(*args: Any, **kwargs: Any) -> Any:
        missing = {
            key: value
            for key, value in given.items()
            if key in positions and key not in kwargs and len(args) <= positions[key]
        }
        if missing:
            warn(notice)
        return hook(*args, **kwargs, **missing)

    # 2.x reads the module's evaluation hooks' signatures before the first batch (it raises on a required
    # dataloader_idx with one dataloader): the wrapper shows the 1.x value as the default.
    adapted.__signature__ = original.replace(  # type: ignore[attr-defined]
        parameters=[
            parameter.replace(default=given[key]) if key in given else parameter
            for key, parameter in original.parameters.items()
        ]
    )
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
