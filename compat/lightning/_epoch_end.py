"""``training_epoch_end``/``validation_epoch_end``/``test_epoch_end`` and ``*_step_end`` keep working on the real 2.x.

2.0 removed them: its configuration validator raises for a module that defines an epoch-end hook, and nothing calls
a ``*_step_end``. While a Trainer runs a module that has them (``Trainer._run``), the shim puts wrappers of the 2.x
hooks in the module's instance ``__dict__`` (each calls the module's own hook too; all are taken off when the run
ends) that do what 1.5.10's loops did (``codemods/rules/_epoch_end_plan.py`` has the facts, checked against 1.5.10):

* ``on_*_batch_end`` keeps what 2.x hands it, the step's output: evaluation outputs that are not None, one list per
  dataloader; training outputs that are not empty (2.x makes them ``{"loss": ..., **extra}``), tensors detached;
* right before the callbacks' ``on_*_epoch_end`` (:mod:`compat.lightning._epoch_hooks`), the legacy hook gets the
  list (a list of lists with several dataloaders), and a fresh list starts;
* ``*_step`` returns ``*_step_end(step output)`` where the module defines one (1.5 collected and, for training,
  optimized that), and passes ``optimizer_idx=0`` to a ``training_step`` that still takes it (one optimizer);
* a 1.x ``optimizer_step`` override is called with 1.x's arguments (:mod:`compat.lightning._optimizer_step`);
* several optimizers run one after the other as 1.5's automatic optimization ran them, and ``training_epoch_end``
  gets a list per optimizer (:mod:`compat.lightning._optimizers`).

The validator runs with the epoch-end hooks hidden (instance attributes set to None while it runs). Each legacy hook
warns once per module class, naming its successor from ``legacy_api.hooks.SUCCESSORS``.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from compat._rows import compat_removed_in
from compat._warn import Notice, warn
from compat.lightning._epoch_hooks import BEFORE_CALLBACKS
from compat.lightning._optimizer_step import override_wrapper
from compat.lightning._optimizers import legacy_optimizers, running
from compat.lightning._patch import PatchLog
from legacy_api.hooks import GONE_PARAMETERS, SUCCESSORS, removed_in

_BASE = "LightningModule"


@dataclass(frozen=True)
class Stage:
    """One removed epoch-end hook; the 2.x hooks named after the successor that SUCCESSORS gives it."""

    hook: str
    step: str
    training: bool

    @property
    def successor(self) -> str:  # "on_train_epoch_end(self), which gets no outputs: ..." -> "on_train_epoch_end"
        found = re.match(r"\w+", SUCCESSORS[(_BASE, self.hook)])
        assert found is not None
        return found.group(0)

    @property
    def batch_end(self) -> str:
        return self.successor.replace("_epoch_end", "_batch_end")

    @property
    def batches(self) -> str:
        """The Trainer attribute with one batch count per dataloader of this stage."""
        return {"training": "num_training_batches", "validation": "num_val_batches", "test": "num_test_batches"}[
            self.hook.partition("_")[0]
        ]


STAGES = (
    Stage("training_epoch_end", "training_step", True),
    Stage("validation_epoch_end", "validation_step", False),
    Stage("test_epoch_end", "test_step", False),
)
STEP_ENDS = {stage.step: f"{stage.step}_end" for stage in STAGES}
#: The 1.x module hooks this module runs (``._unserved_hooks`` warns for the others).
SERVED = frozenset({stage.hook for stage in STAGES} | set(STEP_ENDS.values()))
#: Instance attribute holding the outputs collected so far: stage hook -> dataloader index -> outputs.
OUTPUTS = "_compat_lightning_epoch_outputs"


#: Marks the shim's own 1.x ``LightningModule.*_epoch_end``: empty, for a subclass's ``super().<hook>(outputs)``.
_EMPTY = "_compat_lightning_empty_hook"


def _legacy(model: Any, name: str) -> bool:
    """Whether the module's class defines ``name`` and 2.x's LightningModule (of either root) has no such member
    (but for the empty one the shim gives it)."""
    base = next(cls for cls in reversed(type(model).__mro__) if cls.__name__ == _BASE)
    member = getattr(type(model), name, None)
    if not callable(member) or getattr(member, _EMPTY, False):
        return False
    return not hasattr(base, name) or getattr(getattr(base, name), _EMPTY, False)


def _empty_hook(name: str) -> Callable[..., None]:
    """1.x's own ``LightningModule.<name>``: a docstring alone in 1.4.9, 1.5.10 and 1.9.5."""

    def hook(self: Any, outputs: Any) -> None:
        return None

    hook.__name__ = hook.__qualname__ = name
    hook.__doc__ = f"Lightning 1.x's own {name}, which does nothing (compat.lightning: for super().{name}(outputs))."
    setattr(hook, _EMPTY, True)
    return hook


def _notice(name: str, model: Any) -> Notice:
    removed = removed_in(_BASE, name) or "2.0"  # removed without a deprecation release: "since" the removal
    return Notice(
        f"`{type(model).__name__}.{name}`",
        SUCCESSORS[(_BASE, name)],
        removed,
        compat_removed_in(removed),
        rule="epoch_end_hooks" if name.endswith("_epoch_end") else "removed_hooks",
    )


def _detached(outputs: Any) -> Any:
    import torch
    from lightning_utilities.core.apply_func import apply_to_collection

    return apply_to_collection(outputs, torch.Tensor, torch.Tensor.detach)


def _collector(model: Any, stage: Stage, own: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(own)
    def batch_end(outputs: Any, batch: Any, batch_idx: int, dataloader_idx: int = 0, *rest: Any) -> Any:
        several = stage.training and running(model) is not None  # the 1.x optimizer loop keeps its own
        keep = not several and (bool(outputs) if stage.training else outputs is not None)
        if keep:
            store = model.__dict__.setdefault(OUTPUTS, {}).setdefault(stage.hook, {})
            store.setdefault(dataloader_idx, []).append(_detached(outputs) if stage.training else outputs)
        if stage.training:
            return own(outputs, batch, batch_idx, *rest)
        return own(outputs, batch, batch_idx, dataloader_idx, *rest)

    return batch_end


def _run_epoch_end(stage: Stage, trainer: Any) -> None:
    """The legacy hook with the epoch's outputs, before the callbacks' 2.x hook (as 1.5 ran it)."""
    model = trainer.lightning_module
    if model is None or not _legacy(model, stage.hook):
        return
    by_loader = model.__dict__.setdefault(OUTPUTS, {}).pop(stage.hook, {})
    counts = getattr(trainer, "num_sanity_val_batches" if trainer.sanity_checking else stage.batches, [])
    loaders = len(counts) if isinstance(counts, list) and not stage.training else 1
    outputs = [by_loader.get(i, []) for i in range(loaders)] if loaders > 1 else by_loader.get(0, [])
    driver = running(model) if stage.training else None
    if driver is not None:
        outputs = driver.epoch_outputs()
    warn(_notice(stage.hook, model))
    previous, model._current_fx_name = model._current_fx_name, stage.successor  # self.log as in the successor
    try:
        getattr(type(model), stage.hook)(model, outputs)
    finally:
        model._current_fx_name = previous


for _stage in STAGES:
    BEFORE_CALLBACKS.setdefault(_stage.successor, []).append(functools.partial(_run_epoch_end, _stage))


def _step(model: Any, name: str, own: Callable[..., Any]) -> Callable[..., Any]:
    step_end = STEP_ENDS[name] if _legacy(model, STEP_ENDS[name]) else None
    wants_index = name == "training_step" and "optimizer_idx" in inspect.signature(own).parameters

    @functools.wraps(own)
    def step(*args: Any, **kwargs: Any) -> Any:
        if wants_index and len(args) < 3 and "optimizer_idx" not in kwargs:
            warn(_index_notice(model))
            kwargs["optimizer_idx"] = 0
        output = own(*args, **kwargs)
        if step_end is None:
            return output
        warn(_notice(step_end, model))
        return getattr(model, step_end)(output)

    if wants_index:  # 2.x refuses a training_step whose signature names optimizer_idx: show it the 2.x one
        del step.__wrapped__
        signature = inspect.signature(own)
        kept = [p for p in signature.parameters.values() if p.name != "optimizer_idx"]
        step.__signature__ = signature.replace(parameters=kept)  # type: ignore[attr-defined]
    return step


def _index_notice(model: Any) -> Notice:
    return Notice(
        f"`{type(model).__name__}.training_step(..., optimizer_idx)`",
        "`training_step(self, batch, batch_idx)`",
        "2.0",
        compat_removed_in("2.0"),
        GONE_PARAMETERS[(_BASE, "training_step")]["optimizer_idx"],
        rule="removed_hooks",
    )


def wrappers(model: Any) -> dict[str, Callable[..., Any]]:
    """The instance attributes that make ``model``'s 1.x hooks run on 2.x (empty when it has none)."""
    out: dict[str, Callable[..., Any]] = {}
    for stage in STAGES:
        if _legacy(model, stage.hook):
            out[stage.batch_end] = _collector(model, stage, getattr(model, stage.batch_end))
        step = getattr(model, stage.step, None)
        if step is None:
            continue
        takes_index = stage.training and "optimizer_idx" in inspect.signature(step).parameters
        if _legacy(model, STEP_ENDS[stage.step]) or takes_index:
            out[stage.step] = _step(model, stage.step, step)
    return {**out, **override_wrapper(model)}


@contextmanager
def adapted(model: Any) -> Iterator[None]:
    """``model`` with the wrappers in its instance ``__dict__`` for the duration (then exactly as before)."""
    added = wrappers(model) if model is not None else {}
    for name, wrapper in added.items():
        model.__dict__[name] = wrapper
    model is not None and model.__dict__.pop(OUTPUTS, None)
    try:
        yield
    finally:
        for name in added:
            model.__dict__.pop(name, None)
        model is not None and model.__dict__.pop(OUTPUTS, None)


def _run(original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def run(self: Any, model: Any, *args: Any, **kwargs: Any) -> Any:
        with legacy_optimizers(self, model), adapted(model):
            return original(self, model, *args, **kwargs)

    return run


def _verify(original: Callable[..., None]) -> Callable[..., None]:
    @functools.wraps(original)
    def verify(trainer: Any) -> None:
        model = trainer.lightning_module
        hidden = [stage.hook for stage in STAGES if model is not None and callable(getattr(model, stage.hook, None))]
        for name in hidden:
            model.__dict__[name] = None  # 2.x checks callable(getattr(model, hook)): served by compat instead
        try:
            original(trainer)
        finally:
            for name in hidden:
                model.__dict__.pop(name, None)

    return verify


def install_epoch_end(root: str, trainer: Any, log: PatchLog) -> None:
    """Wrap ``Trainer._run`` and the validator that ``<root>.trainer.trainer`` calls, and give LightningModule 1.x's
    empty epoch-end hooks back (a subclass's ``super().validation_epoch_end(outputs)`` did nothing)."""
    log.set_attr(trainer, "_run", _run(trainer.__dict__["_run"]))
    base = importlib.import_module(root).LightningModule
    for stage in STAGES:
        if not hasattr(base, stage.hook):
            log.set_attr(base, stage.hook, _empty_hook(stage.hook))
    module = importlib.import_module(f"{root}.trainer.trainer")
    log.set_attr(module, "_verify_loop_configurations", _verify(module._verify_loop_configurations))
