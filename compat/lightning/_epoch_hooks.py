"""``on_epoch_start``/``on_epoch_end`` of a LightningModule and of a Callback (removed in 1.8) run on the real 2.x
where 1.5.10 ran them, and the point where the removed epoch-end hooks run (:mod:`compat.lightning._epoch_end`).

1.5.10 called ``on_epoch_start`` (callbacks, then the module) right before ``on_train_epoch_start``,
``on_validation_epoch_start`` and ``on_test_epoch_start`` (the sanity check's too), and ``on_epoch_end`` right
after ``on_train_epoch_end``/``on_validation_epoch_end``/``on_test_epoch_end``, before its logger connector closed
the epoch; ``training_epoch_end``/``validation_epoch_end``/``test_epoch_end`` ran before the callbacks'
``on_*_epoch_end``. 2.x calls every hook of its callbacks through ``trainer.call._call_callback_hooks`` and
closes each epoch with ``_LoggerConnector.on_epoch_end``: the shim runs the 1.x hooks registered in
:data:`BEFORE_CALLBACKS` before the first and ``on_epoch_end`` before the second. Each hook warns once per class;
``self.log`` inside them logs as in the 2.x hook of the same place.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from typing import Any

from compat._rows import compat_removed_in
from compat._warn import Notice, warn
from compat.lightning._patch import PatchLog
from legacy_api.hooks import SUCCESSORS, removed_in

#: 2.x callback hook -> what 1.5 ran before the callbacks' hook of that name (each gets the trainer).
BEFORE_CALLBACKS: dict[str, list[Callable[[Any], None]]] = {}
#: The 1.x hooks (of modules and callbacks) this module runs.
SERVED = frozenset({"on_epoch_start", "on_epoch_end"})


def _root(trainer: Any) -> str:
    return type(trainer).__module__.rpartition(".trainer.")[0]


def _legacy(owner: Any, base: type, name: str) -> bool:
    """Whether ``owner``'s class defines the hook ``name`` that the 2.x ``base`` no longer has."""
    return callable(getattr(type(owner), name, None)) and not hasattr(base, name)


def _notice(owner: Any, base: str, name: str) -> Notice:
    removed = removed_in(base, name) or "1.8"
    return Notice(
        f"`{type(owner).__name__}.{name}`",
        SUCCESSORS[(base, name)],
        removed,
        compat_removed_in(removed),
        rule="removed_hooks",
        rewrites=False,  # the rule leaves a TODO there
    )


def _stage_hook(trainer: Any, when: str) -> str:
    """The 2.x hook at the place where 1.5 called ``on_epoch_{when}`` now."""
    stage = "test" if trainer.testing else "validation" if trainer.validating or trainer.sanity_checking else "train"
    return f"on_{stage}_epoch_{when}"


def call_each_epoch(trainer: Any, when: str) -> None:
    """1.5's ``call_hook("on_epoch_<when>")``: every callback's that defines it, then the module's."""
    name = f"on_epoch_{when}"
    root = importlib.import_module(_root(trainer))
    model = trainer.lightning_module
    for callback in list(trainer.callbacks):
        if _legacy(callback, root.Callback, name):
            warn(_notice(callback, "Callback", name))
            getattr(callback, name)(trainer, model)
    if model is None or not _legacy(model, root.LightningModule, name):
        return
    warn(_notice(model, "LightningModule", name))
    previous, model._current_fx_name = model._current_fx_name, _stage_hook(trainer, when)
    try:
        getattr(model, name)()
    finally:
        model._current_fx_name = previous


for _hook in ("on_train_epoch_start", "on_validation_epoch_start", "on_test_epoch_start"):
    BEFORE_CALLBACKS.setdefault(_hook, []).append(functools.partial(call_each_epoch, when="start"))


def _callback_hooks(original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def call_callback_hooks(trainer: Any, hook_name: str, *args: Any, **kwargs: Any) -> Any:
        # on_train_epoch_end is called twice, the monitoring callbacks (checkpoints, early stopping) last.
        if kwargs.get("monitoring_callbacks") is not True:
            for action in BEFORE_CALLBACKS.get(hook_name, ()):
                action(trainer)
        return original(trainer, hook_name, *args, **kwargs)

    return call_callback_hooks


def _epoch_end(original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def on_epoch_end(self: Any) -> Any:
        call_each_epoch(self.trainer, "end")
        return original(self)

    return on_epoch_end


def install_epoch_hooks(root: str, log: PatchLog) -> None:
    """Wrap ``<root>.trainer.call._call_callback_hooks`` and ``_LoggerConnector.on_epoch_end``."""
    call = importlib.import_module(f"{root}.trainer.call")
    log.set_attr(call, "_call_callback_hooks", _callback_hooks(call._call_callback_hooks))
    connector = importlib.import_module(f"{root}.trainer.connectors.logger_connector.logger_connector")
    cls = connector._LoggerConnector
    log.set_attr(cls, "on_epoch_end", _epoch_end(cls.__dict__["on_epoch_end"]))
