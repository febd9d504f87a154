"""Several optimizers under 1.x automatic optimization on the real 2.x (``training_step(batch, batch_idx,
optimizer_idx)`` with ``configure_optimizers`` returning two or more).

2.0 runs several optimizers only with manual optimization and refuses such a module ("Training with multiple
optimizers is only supported with manual optimization"). 1.5.10's ``OptimizerLoop`` ran them one after the other on
each batch; while a Trainer fits such a module the shim runs that sequence in place of 2.x's automatic loop (the
``run`` of ``trainer.fit_loop.epoch_loop.automatic_optimization``, an instance attribute taken off after the run),
with 2.x's own closure (``training_step`` with that ``optimizer_idx``, ``zero_grad`` at the first batch of an
accumulation, ``backward``), so the rest is 2.x's and the same as one optimizer gets:

* the active optimizers of a batch are all of them, or with ``frequency`` keys the one whose turn it is
  (1.5.10's ``_get_active_optimizers``); each is toggled (only its parameters require a gradient) around its step,
  through the module's ``toggle_optimizer``/``untoggle_optimizer`` (1.x overrides get ``optimizer_idx``);
* while accumulating, the closure runs without a step; otherwise the module's ``optimizer_step`` is called with
  that optimizer (a 1.x override gets its ``optimizer_idx``: :mod:`compat.lightning._optimizer_step`), and 2.x's
  precision plugin clips the gradients inside it as 1.5's did;
* the global step counts batches, as 1.5's did (2.x counts optimizer steps);
* DDP finds unused parameters unless told otherwise, 1.5's default (2.x's is not to);
* an lr scheduler given in the dict of an optimizer steps only on that optimizer's batches (1.5 kept ``opt_idx``);
* ``on_train_batch_end`` and ``training_epoch_end`` get 1.5's shapes (:mod:`compat.lightning._optimizer_outputs`).

What the shim cannot run as 1.5 did raises ``RemovedFeatureError`` naming manual optimization at the first batch:
``truncated_bptt_steps`` (1.5 ran the optimizers on each split of the batch). One optimizer keeps 2.x's automatic
loop (``optimizer_idx=0``: :mod:`compat.lightning._epoch_end`).
"""

from __future__ import annotations

import functools
import importlib
import inspect
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from compat._rows import compat_removed_in
from compat._warn import Notice, warn
from compat.lightning._optimizer_outputs import BatchOutput, batch_end_outputs, epoch_end_outputs
from compat.lightning._patch import PatchLog
from legacy_api.hooks import GONE_PARAMETERS

#: Instance attribute of a module whose 1.x optimizers the shim runs: its :class:`LegacyOptimizers`.
ACTIVE = "_compat_lightning_optimizers"
#: Instance attribute: the index of the optimizer now stepping, for the 1.x hooks that take ``optimizer_idx``.
CURRENT = "_compat_lightning_optimizer_idx"


def current_index(model: Any) -> int:
    """The ``optimizer_idx`` 1.x would pass to a hook now (0 outside the shim's loop: one optimizer)."""
    index: int = model.__dict__.get(CURRENT, 0)
    return index


def takes_index(hook: Any) -> bool:
    """Whether a (bound) hook declares ``optimizer_idx``, as 1.x's did."""
    try:
        return "optimizer_idx" in inspect.signature(hook).parameters
    except (TypeError, ValueError):
        return False


def _root(trainer: Any) -> str:
    """``pytorch_lightning`` or ``lightning.pytorch``: the package of this Trainer."""
    return type(trainer).__module__.rpartition(".trainer.")[0]


def _notice(model: Any, count: int) -> Notice:
    return Notice(
        f"`{type(model).__name__}.training_step(..., optimizer_idx)` with {count} optimizers",
        "manual optimization: `self.automatic_optimization = False`, then `opt_a, opt_b = self.optimizers()` and "
        "`self.manual_backward(loss)`, `opt.step()`, `opt.zero_grad()` in `training_step(self, batch, batch_idx)`",
        "2.0",
        compat_removed_in("2.0"),
        GONE_PARAMETERS[("LightningModule", "training_step")]["optimizer_idx"],
        rule="removed_hooks",
        rewrites=False,  # the rule leaves a TODO there
    )


class LegacyOptimizers:
    """The 1.x optimizer loop of one run: what ``configure_optimizers`` said and the outputs of the epoch."""

    def __init__(self, model: Any, trainer: Any) -> None:
        self.model = model
        self.trainer = trainer
        self.loop = trainer.fit_loop.epoch_loop.automatic_optimization
        self.frequencies: list[int] = []
        #: id(lr scheduler) -> the index of the optimizer whose dict gave it (1.5's ``opt_idx``).
        self.scheduler_index: dict[int, int] = {}
        self.batches: list[BatchOutput] = []

    @property
    def several(self) -> bool:
        return len(self.trainer.optimizers) > 1

    def active(self, batch_idx: int) -> list[tuple[int, Any]]:
        """1.5.10's ``_get_active_optimizers``: every optimizer, or the one whose turn it is under ``frequency``."""
        optimizers = list(self.trainer.optimizers)
        if not self.frequencies:
            return list(enumerate(optimizers))
        place = batch_idx % sum(self.frequencies)
        for index, end in enumerate(self._cumulative()):
            if place < end:
                return [(index, optimizers[index])]
        raise AssertionError("unreachable: place < the sum of the frequencies")

    def _cumulative(self) -> Iterator[int]:
        total = 0
        for frequency in self.frequencies:
            total += frequency
            yield total

    # -- the module's hooks, as instance attributes ------------------------------------------------------------

    def configure_optimizers(self, own: Callable[..., Any]) -> Callable[..., Any]:
        """Reads 1.5's ``frequency`` keys and the optimizer of each dict's scheduler; hands 2.x the rest."""

        @functools.wraps(own)
        def configure_optimizers() -> Any:
            config = own()
            if not isinstance(config, (list, tuple)) or not config or not all(isinstance(d, dict) for d in config):
                return config
            frequencies = [d["frequency"] for d in config if d.get("frequency") is not None]
            if frequencies and len(frequencies) != len(config):
                raise ValueError("A frequency must be given to each optimizer.")  # 1.5.10's words
            self.frequencies = frequencies
            for index, entry in enumerate(config):
                scheduler = entry.get("lr_scheduler")
                if isinstance(scheduler, dict):
                    scheduler = scheduler.get("scheduler")
                if scheduler is not None:
                    self.scheduler_index[id(scheduler)] = index
            return type(config)({k: v for k, v in entry.items() if k != "frequency"} for entry in config)

        return configure_optimizers

    def lr_scheduler_step(self, own: Callable[..., Any]) -> Callable[..., Any]:
        """A scheduler of an optimizer's dict steps only when that optimizer is active (1.5.10's ``opt_idx``)."""

        @functools.wraps(own)
        def lr_scheduler_step(scheduler: Any, metric: Any) -> Any:
            index = self.scheduler_index.get(id(scheduler))
            total_batch_idx = self.trainer.fit_loop.epoch_loop.total_batch_idx
            if index is not None and index not in [i for i, _ in self.active(total_batch_idx)]:
                return None
            return own(scheduler, metric)

        return lr_scheduler_step

    # -- the loop ------------------------------------------------------------------------------------------------

    def run(self, optimizer: Any, batch_idx: int, kwargs: OrderedDict[str, Any]) -> Any:
        """In place of 2.x's ``_AutomaticOptimization.run``: 1.5.10's ``OptimizerLoop`` over the active optimizers."""
        if not self.several:
            return type(self.loop).run(self.loop, optimizer, batch_idx, kwargs)
        warn(_notice(self.model, len(self.trainer.optimizers)))
        trainer, model = self.trainer, self.model
        if getattr(model, "truncated_bptt_steps", 0):  # 1.5 split each batch and ran the optimizers on each split
            from compat.lightning._names import removed_feature_error

            raise removed_feature_error()(
                "`truncated_bptt_steps` with several optimizers: 2.0 removed truncated back-propagation through time; "
                "use manual optimization (`self.automatic_optimization = False`) and split the sequence yourself in "
                "`training_step(self, batch, batch_idx)`"
            )
        utilities = importlib.import_module(f"{_root(trainer)}.loops.utilities")
        accumulating = not trainer.strategy.handles_gradient_accumulation and trainer.fit_loop._should_accumulate()
        output: BatchOutput = {}
        for index, torch_optimizer in self.active(batch_idx):
            model.__dict__[CURRENT] = index
            self._toggle(torch_optimizer, index)
            step_kwargs = OrderedDict(kwargs)
            step_kwargs["optimizer_idx"] = index
            closure = self.loop._make_closure(step_kwargs, torch_optimizer, batch_idx)
            if accumulating:
                with utilities._block_parallel_sync_behavior(trainer.strategy, block=True):
                    closure()
            else:
                self._step(index, batch_idx, closure)
            result = closure.consume_result()
            if result.loss is not None:
                output[index] = _detached(result.asdict())
            self._untoggle(torch_optimizer, index)
        model.__dict__.pop(CURRENT, None)
        if not accumulating:  # 1.5's global step: one a batch, whatever the optimizers did
            progress = self.loop.optim_progress.optimizer.step
            progress.increment_ready()
            progress.increment_completed()
        self.batches.append(output)
        return batch_end_outputs(output, len(trainer.optimizers))

    def _step(self, index: int, batch_idx: int, closure: Any) -> None:
        call = importlib.import_module(f"{_root(self.trainer)}.trainer.call")
        optimizer = self.trainer.strategy._lightning_optimizers[index]
        epoch = self.trainer.current_epoch
        call._call_lightning_module_hook(self.trainer, "optimizer_step", epoch, batch_idx, optimizer, closure)

    def _toggle(self, optimizer: Any, index: int) -> None:
        hook = self.model.toggle_optimizer
        hook(optimizer, index) if takes_index(hook) else hook(optimizer)

    def _untoggle(self, optimizer: Any, index: int) -> None:
        hook = self.model.untoggle_optimizer
        hook(index) if takes_index(hook) else hook(optimizer)

    def epoch_outputs(self) -> Any:
        """What 1.5 passed to ``training_epoch_end`` for the epoch so far; starts the next epoch's list."""
        batches, self.batches = self.batches, []
        return epoch_end_outputs(batches, len(self.trainer.optimizers))


def _detached(outputs: Any) -> Any:
    import torch
    from lightning_utilities.core.apply_func import apply_to_collection

    return apply_to_collection(outputs, torch.Tensor, torch.Tensor.detach)


def running(model: Any) -> LegacyOptimizers | None:
    """The shim's 1.x optimizer loop of ``model``'s run when it runs several optimizers, else None."""
    driver = model.__dict__.get(ACTIVE) if model is not None else None
    return driver if isinstance(driver, LegacyOptimizers) and driver.several else None


def _legacy(model: Any) -> bool:
    step = getattr(type(model), "training_step", None)  # the class's: the shim's wrapper hides optimizer_idx
    return step is not None and model.automatic_optimization and takes_index(step)


@contextmanager
def legacy_optimizers(trainer: Any, model: Any) -> Iterator[None]:
    """While ``trainer`` runs ``model``: the 1.x loop in place of 2.x's automatic one, when the module is 1.x's."""
    if model is None or not _legacy(model):
        yield
        return
    driver = LegacyOptimizers(model, trainer)
    # 1.5's DDP defaulted find_unused_parameters to True (2.x: False); the toggled optimizers need it, since the
    # parameters of the optimizers not stepping get no gradient. An explicit value stays.
    ddp = importlib.import_module(f"{_root(trainer)}.strategies").DDPStrategy
    unset = isinstance(trainer.strategy, ddp) and "find_unused_parameters" not in trainer.strategy._ddp_kwargs
    if unset:
        trainer.strategy._ddp_kwargs["find_unused_parameters"] = True
    added = {
        ACTIVE: driver,
        "configure_optimizers": driver.configure_optimizers(model.configure_optimizers),
        "lr_scheduler_step": driver.lr_scheduler_step(model.lr_scheduler_step),
    }
    model.__dict__.update(added)
    driver.loop.__dict__["run"] = driver.run
    try:
        yield
    finally:
        driver.loop.__dict__.pop("run", None)
        if unset:
            trainer.strategy._ddp_kwargs.pop("find_unused_parameters", None)
        for name in added:
            model.__dict__.pop(name, None)
        model.__dict__.pop(CURRENT, None)


def _validate(original: Callable[..., None]) -> Callable[..., None]:
    @functools.wraps(original)
    def validate(optimizers: list[Any], model: Any) -> None:
        if ACTIVE not in model.__dict__:  # the shim runs this module's optimizers as 1.x did
            original(optimizers, model)

    return validate


def install_optimizers(root: str, log: PatchLog) -> None:
    """Let 2.x accept several optimizers of a module whose 1.x loop the shim runs."""
    module = importlib.import_module(f"{root}.core.optimizer")
    name = "_validate_multiple_optimizers_support"
    log.set_attr(module, name, _validate(getattr(module, name)))
