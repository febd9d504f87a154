"""The Callback hooks 2.x dropped, called where 1.5.10 called them, and 1.5's callback state in checkpoints.

Hooks (each warns once per callback class, rule ``removed_hooks``; the successor is ``legacy_api.hooks``'):

* ``on_batch_start``/``on_batch_end``: 1.5 ran them right before ``on_train_batch_start`` and right after
  ``on_train_batch_end``;
* ``on_pretrain_routine_start``/``_end`` (callbacks, then the module, as ``call_hook`` did): once per ``fit``
  (2.x's ``on_fit_start`` runs for fit only), after ``on_fit_start``, before the sanity check;
* ``on_before_accelerator_backend_setup``: before the ``setup`` hooks of every run;
* ``on_keyboard_interrupt``: before ``on_exception`` when the exception is a KeyboardInterrupt;
* ``on_configure_sharded_model``: after the module's ``configure_sharded_model``/``configure_model`` (when a fit
  resumes, 1.5 had restored the callbacks' state before it; 2.x restores it after ``configure_model``);
* ``on_init_start``/``on_init_end``: at the end of ``Trainer(...)``, the callbacks then in place (called from
  :mod:`._trainer_arguments`).

State: 1.5.10 stored what a callback's ``on_save_checkpoint`` *returned* under ``checkpoint["callbacks"][state_key]``
and handed that state (a deep copy), not the checkpoint, to its ``on_load_checkpoint(trainer, pl_module,
callback_state)``, only when there was one. 2.x ignores the return value and passes the whole checkpoint. The shim
stores the returned state, and gives it back to a callback that keeps 1.5's ways: it defines no ``state_dict`` (2.x's
place for state) and its third ``on_load_checkpoint`` parameter is not named ``checkpoint``.
"""

from __future__ import annotations

import copy
import functools
import importlib
import inspect
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from compat._rows import compat_removed_in
from compat._warn import Notice, warn
from compat.lightning._patch import PatchLog
from legacy_api.hooks import SUCCESSORS, removed_in

#: 2.x callback hook -> (1.5 hooks run before it, 1.5 hooks run after it).
AROUND: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "on_train_batch_start": (("on_batch_start",), ()),
    "on_train_batch_end": ((), ("on_batch_end",)),
    "on_fit_start": ((), ("on_pretrain_routine_start", "on_pretrain_routine_end")),
    "setup": (("on_before_accelerator_backend_setup",), ()),
    "on_exception": (("on_keyboard_interrupt",), ()),
}
#: 1.5 hooks ``call_hook`` also ran on the LightningModule (after the callbacks).
MODULE_TOO = frozenset({"on_pretrain_routine_start", "on_pretrain_routine_end"})
#: The 1.x Callback hooks this module runs: those of :data:`AROUND`, at ``Trainer(...)``'s end and after
#: ``configure_model``.
SERVED = frozenset(
    {name for before, after in AROUND.values() for name in (*before, *after)}
    | {"on_init_start", "on_init_end", "on_configure_sharded_model"}
)


def _root(trainer: Any) -> Any:
    return importlib.import_module(type(trainer).__module__.rpartition(".trainer.")[0])


def _legacy(owner: Any, base: type, name: str) -> bool:
    return callable(getattr(type(owner), name, None)) and not hasattr(base, name)


def _notice(owner: Any, base: str, name: str) -> Notice:
    removed = removed_in(base, name) or "1.8"
    successor = SUCCESSORS.get((base, name), "")
    return Notice(
        f"`{type(owner).__name__}.{name}`",
        f"`{successor}`" if successor else "",
        removed,
        compat_removed_in(removed),
        rule="removed_hooks",
    )


def run_legacy(trainer: Any, name: str) -> None:
    """1.5's ``call_hook(name)``: each callback that defines it, then (for :data:`MODULE_TOO`) the module."""
    root = _root(trainer)
    module = trainer.lightning_module
    for callback in list(trainer.callbacks):
        if _legacy(callback, root.Callback, name):
            warn(_notice(callback, "Callback", name))
            getattr(callback, name)(trainer, module)
    if name in MODULE_TOO and module is not None and _legacy(module, root.LightningModule, name):
        warn(_notice(module, "LightningModule", name))
        getattr(module, name)()


def call_init_hooks(trainer: Any) -> None:
    """``on_init_start`` then ``on_init_end`` of the callbacks (1.5: ``callback.on_init_start(trainer)``)."""
    root = _root(trainer)
    for name in ("on_init_start", "on_init_end"):
        for callback in list(trainer.callbacks):
            if _legacy(callback, root.Callback, name):
                warn(_notice(callback, "Callback", name))
                getattr(callback, name)(trainer)


def _wrap_callback_hooks(original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def call_callback_hooks(trainer: Any, hook_name: str, *args: Any, **kwargs: Any) -> Any:
        before, after = AROUND.get(hook_name, ((), ()))
        if hook_name == "on_exception" and not (args and isinstance(args[0], KeyboardInterrupt)):
            before = ()
        first = kwargs.get("monitoring_callbacks") is not True  # on_train_epoch_end runs twice in 2.x
        for name in before if first else ():
            run_legacy(trainer, name)
        result = original(trainer, hook_name, *args, **kwargs)
        for name in after if kwargs.get("monitoring_callbacks") is not False else ():
            run_legacy(trainer, name)
        return result

    return call_callback_hooks


def _wrap_configure_model(original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def call_configure_model(trainer: Any) -> Any:
        result = original(trainer)
        run_legacy(trainer, "on_configure_sharded_model")  # 1.5: right after configure_sharded_model
        return result

    return call_configure_model


# --- state ----------------------------------------------------------------------------------------------------------
def _keeps_15_state(callback: Any, base: Any) -> bool:
    cls = type(callback)
    if cls.state_dict is not base.state_dict or cls.on_load_checkpoint is base.on_load_checkpoint:
        return False
    try:
        parameters = list(inspect.signature(callback.on_load_checkpoint).parameters)
    except (TypeError, ValueError):
        return False
    return len(parameters) >= 3 and parameters[2] != "checkpoint"


@contextmanager
def _adapted(
    trainer: Any, adapt: Callable[[Any, Callable[..., Any]], Callable[..., Any] | None], hook: str
) -> Iterator[None]:
    added = []
    for callback in list(trainer.callbacks):
        if hook in vars(callback):
            continue
        replacement = adapt(callback, getattr(callback, hook))
        if replacement is not None:
            setattr(callback, hook, replacement)
            added.append(callback)
    try:
        yield
    finally:
        for callback in added:
            vars(callback).pop(hook, None)


def _saving(base: Any) -> Callable[[Any, Callable[..., Any]], Callable[..., Any] | None]:
    def adapt(callback: Any, hook: Callable[..., Any]) -> Callable[..., Any] | None:
        if type(callback).on_save_checkpoint is base.on_save_checkpoint:
            return None

        def on_save_checkpoint(trainer: Any, pl_module: Any, checkpoint: dict[str, Any]) -> None:
            state = hook(trainer, pl_module, checkpoint)
            if state:
                warn(_notice(callback, "Callback", "on_save_checkpoint"))
                checkpoint.setdefault("callbacks", {})[callback.state_key] = state

        return on_save_checkpoint

    return adapt


def _loading(base: Any) -> Callable[[Any, Callable[..., Any]], Callable[..., Any] | None]:
    def adapt(callback: Any, hook: Callable[..., Any]) -> Callable[..., Any] | None:
        if not _keeps_15_state(callback, base):
            return None

        def on_load_checkpoint(trainer: Any, pl_module: Any, checkpoint: dict[str, Any]) -> None:
            states = checkpoint.get("callbacks") or {}
            state = states.get(callback.state_key, states.get(getattr(callback, "_legacy_state_key", None)))
            if state:
                warn(_notice(callback, "Callback", "on_load_checkpoint"))
                hook(trainer, pl_module, copy.deepcopy(state))

        return on_load_checkpoint

    return adapt


def _wrap_state(original: Callable[..., Any], hook: str, adapt: Any) -> Callable[..., Any]:
    @functools.wraps(original)
    def call(trainer: Any, checkpoint: dict[str, Any]) -> Any:
        with _adapted(trainer, adapt, hook):
            return original(trainer, checkpoint)

    return call


def install_legacy_callbacks(root: str, log: PatchLog) -> None:
    """Wrap ``<root>.trainer.call``'s callback-hook runner and its checkpoint-state callers."""
    call = importlib.import_module(f"{root}.trainer.call")
    base = importlib.import_module(root).Callback
    log.set_attr(call, "_call_callback_hooks", _wrap_callback_hooks(call._call_callback_hooks))
    log.set_attr(call, "_call_configure_model", _wrap_configure_model(call._call_configure_model))
    for name, hook, adapt in (
        ("_call_callbacks_on_save_checkpoint", "on_save_checkpoint", _saving(base)),
        ("_call_callbacks_on_load_checkpoint", "on_load_checkpoint", _loading(base)),
    ):
        log.set_attr(call, name, _wrap_state(getattr(call, name), hook, adapt))
