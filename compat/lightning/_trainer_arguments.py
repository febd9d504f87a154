"""1.5 Trainer arguments that 2.x removed and that have a runtime equivalent, applied as 1.5.10 applied them.

The translation (:mod:`legacy_api.translate`) turns what a 2.x *flag* can say into that flag
(``weights_summary=None`` -> ``enable_model_summary=False``) and refuses the rest. What it refuses but the running
Trainer can still do is done here, after the real ``__init__``, each as 1.5.10's connectors did it (read from its
sources: ``callback_connector``, ``logger_connector``, ``data_connector``, ``optimizer_loop``,
``precision_plugin``):

* ``weights_summary="full"`` -> the ModelSummary callback with ``max_depth=-1`` (1.5: ``ModelSummaryMode``);
* ``process_position=N`` -> the trainer's own TQDMProgressBar at that position (1.5 built it with both arguments;
  a progress bar the user passed in ``callbacks`` was used as it was);
* ``stochastic_weight_avg=True`` -> ``StochasticWeightAveraging()`` first in the callbacks unless one is there,
  with 1.5's ``swa_lrs=None`` (the optimizer's learning rates when averaging starts), which 2.x no longer accepts;
* ``flush_logs_every_n_steps=N`` -> every logger's ``save()`` when ``(global_step + 1) % N == 0`` or on stop;
* ``terminate_on_nan=True`` -> 1.5's checks: a non-finite closure loss raises before backward, a non-finite
  parameter after it (``ValueError`` with 1.5's texts);
* ``track_grad_norm=p`` -> 1.5's ``grad_norm`` (rounded floats) logged before the first optimizer's step, through
  the module's ``log_grad_norm`` where it defines one (1.5's hook), else as 1.5's default did;
* ``prepare_data_per_node=x`` and ``multiple_trainloader_mode=m``: see :mod:`._data_arguments`;
* ``move_metrics_to_cpu=True`` -> accepted: the logged values are the same, only their device differs;
* ``auto_lr_find``/``auto_scale_batch_size`` -> kept for ``trainer.tune()`` (:mod:`._tune`), as 1.5 read them;
* ``log_gpu_memory="all"|"min_max"`` -> on GPUs, 1.5's nvidia-smi keys logged each optimizer step; elsewhere
  nothing (1.5 read it only on GPUs);
* ``resume_from_checkpoint=p`` -> the ``ckpt_path`` of the first ``fit()`` without one, ``weights_save_path=d`` ->
  where checkpoints go (:mod:`._checkpoints`).

Each warns once at the user's line, naming the replacement and the ``removed_arguments`` rule. The values as given
are kept on the trainer (``trainer.<name>`` answers as in 1.5 for ``resume_from_checkpoint`` etc. through
:mod:`compat.lightning._properties`' ``GIVEN`` record).
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from compat._rows import compat_removed_in, flag_versions
from compat._warn import Notice, warn
from compat.lightning._connector import attach
from compat.lightning._legacy_callbacks import call_init_hooks
from compat.lightning._patch import PatchLog
from compat.lightning._trainer import GIVEN
from legacy_api.removed_arguments import REMOVED_ARGUMENTS
from legacy_api.translate import translate

RULE = "removed_arguments"
#: Where the shim keeps the resume path on a trainer until the ``fit()`` it applies to (read by ``._checkpoints``).
RESUME = "_compat_lightning_resume"
#: The removal release of each argument, from the same table the translation reads.
_REMOVED_IN = {row.name: row.removed_in for row in REMOVED_ARGUMENTS}


@dataclass(frozen=True)
class Argument:
    """A removed argument the shim applies: what replaces it, and how (``apply(root, trainer, value, given)``)."""

    name: str
    replacement: str
    apply: Callable[[str, Any, Any, Mapping[str, Any]], None]
    details: str = ""


def _module(root: str, name: str) -> Any:
    return importlib.import_module(f"{root}.{name}")


# --- the callbacks 1.5 built ----------------------------------------------------------------------------------------
def _model_summary(root: str, trainer: Any, value: Any, given: Mapping[str, Any]) -> None:
    depth = {"top": 1, "full": -1}.get(value)
    if depth is None:
        from lightning_fabric.utilities.exceptions import MisconfigurationException

        raise MisconfigurationException(f"`weights_summary` can be None, top, full but got {value}")
    summaries = [cb for cb in trainer.callbacks if isinstance(cb, _module(root, "callbacks").ModelSummary)]
    if given.get("enable_model_summary", True) is False:
        return
    if summaries and all(not _user_given(cb, given) for cb in summaries):
        summaries[0]._max_depth = depth  # 2.x made its default ModelSummary(max_depth=1): 1.5 made this one
    elif not summaries:
        trainer.callbacks.append(_module(root, "callbacks").ModelSummary(max_depth=depth))


def _user_given(callback: Any, given: Mapping[str, Any]) -> bool:
    callbacks = given.get("callbacks")
    listed = callbacks if isinstance(callbacks, list | tuple) else [callbacks]
    return any(callback is item for item in listed)


def _process_position(root: str, trainer: Any, value: Any, given: Mapping[str, Any]) -> None:
    bar = trainer.progress_bar_callback
    if isinstance(bar, _module(root, "callbacks").TQDMProgressBar) and not _user_given(bar, given):
        bar._process_position = int(value)


@functools.cache
def _legacy_swa(root: str) -> type:
    base = _module(root, "callbacks").StochasticWeightAveraging

    class LegacyStochasticWeightAveraging(base):  # type: ignore[misc, valid-type]
        """1.5's ``StochasticWeightAveraging()``: ``swa_lrs`` None means the optimizer's rates at the start."""

        def __init__(self) -> None:
            super().__init__(swa_lrs=1.0)  # any valid rate: 2.x refuses None; the real one is set below
            self._swa_lrs: Any = None

        def on_train_epoch_start(self, trainer: Any, pl_module: Any) -> None:
            if self._swa_lrs is None and trainer.current_epoch == self.swa_start:
                self._swa_lrs = [group["lr"] for group in trainer.optimizers[0].param_groups]
            super().on_train_epoch_start(trainer, pl_module)

    # The callback-state key is the qualified name: a checkpoint of 2.x's own SWA callback resumes into this one,
    # and code that reads type(cb).__name__ sees 1.5's name.
    LegacyStochasticWeightAveraging.__qualname__ = base.__qualname__
    LegacyStochasticWeightAveraging.__name__ = base.__name__
    return LegacyStochasticWeightAveraging


def _stochastic_weight_avg(root: str, trainer: Any, value: Any, given: Mapping[str, Any]) -> None:
    swa = _module(root, "callbacks").StochasticWeightAveraging
    if value and not any(isinstance(cb, swa) for cb in trainer.callbacks):
        trainer.callbacks.insert(0, _legacy_swa(root)())


def _callback(root: str, hooks: dict[str, Callable[..., None]]) -> Any:
    """A callback object with these hook functions (each called with the hook's arguments)."""
    base = _module(root, "callbacks").Callback
    return type("LegacyTrainerArgument", (base,), {name: staticmethod(fn) for name, fn in hooks.items()})()


def _flush_logs(root: str, trainer: Any, value: Any, given: Mapping[str, Any]) -> None:
    every = int(value)

    def on_train_batch_end(trainer: Any, *args: Any) -> None:
        if (trainer.global_step + 1) % every == 0 or trainer.should_stop:
            for logger in trainer.loggers:
                logger.save()

    trainer.callbacks.append(_callback(root, {"on_train_batch_end": on_train_batch_end}))


def _detect_nan_parameters(module: Any) -> None:
    """1.5.10's ``utilities.finite_checks.detect_nan_parameters`` (gone in 2.0)."""
    import torch

    for name, param in module.named_parameters():
        if not torch.isfinite(param).all():
            for other_name, other in module.named_parameters():
                if other.grad is not None and torch.isnan(other.grad.float()).any():
                    print(f"{other_name}: {other.grad}")
            raise ValueError(
                f"Detected nan and/or inf values in `{name}`."
                " Check your forward pass for numerically unstable operations."
            )


def _terminate_on_nan(root: str, trainer: Any, value: Any, given: Mapping[str, Any]) -> None:
    if not isinstance(value, bool):
        raise TypeError(f"`terminate_on_nan` should be a bool, got {value}.")
    if not value:
        return
    import torch

    def on_before_backward(trainer: Any, pl_module: Any, loss: Any) -> None:
        if loss is not None and not torch.isfinite(loss).all():
            raise ValueError(f"The loss returned in `training_step` is {loss}.")

    def on_after_backward(trainer: Any, pl_module: Any) -> None:
        _detect_nan_parameters(pl_module)

    hooks: dict[str, Callable[..., None]] = {
        "on_before_backward": on_before_backward,
        "on_after_backward": on_after_backward,
    }
    trainer.callbacks.append(_callback(root, hooks))


def _grad_norm(module: Any, norm_type: float, separator: str) -> dict[str, float]:
    """1.5.10's ``utilities.grads.grad_norm``: floats rounded to 4 places (2.x returns tensors, unrounded)."""
    import torch

    norms = {
        f"grad_{norm_type}_norm{separator}{name}": p.grad.data.norm(norm_type).item()
        for name, p in module.named_parameters()
        if p.grad is not None
    }
    if norms:
        norms[f"grad_{norm_type}_norm_total"] = torch.tensor(list(norms.values())).norm(norm_type).item()
        norms = {key: round(value, 4) for key, value in norms.items()}
    return norms


def _track_grad_norm(root: str, trainer: Any, value: Any, given: Mapping[str, Any]) -> None:
    valid = isinstance(value, int | float) or value == "inf"
    if value == -1:
        return
    if not (valid and float(value) > 0):
        from lightning_fabric.utilities.exceptions import MisconfigurationException

        raise MisconfigurationException(
            f"`track_grad_norm` must be a positive number or 'inf' (infinity norm). Got {value}."
        )
    norm_type = float(value)

    def on_before_optimizer_step(trainer: Any, pl_module: Any, optimizer: Any) -> None:
        if not trainer.optimizers or optimizer is not trainer.optimizers[0]:
            return  # 1.5 tracked on optimizer_idx 0 only
        logger = trainer.logger
        separator = getattr(logger, "group_separator", "/") if logger is not None else "/"
        norms = _grad_norm(pl_module, norm_type, separator)
        if not norms:
            return
        own = getattr(type(pl_module), "log_grad_norm", None)
        if own is not None:
            own(pl_module, norms)
        else:
            pl_module.log_dict(norms, on_step=True, on_epoch=True, prog_bar=True, logger=True)

    trainer.callbacks.append(_callback(root, {"on_before_optimizer_step": on_before_optimizer_step}))


def _data(root: str, trainer: Any, value: Any, given: Mapping[str, Any]) -> None:
    """Applied when data is prepared or loaded (:mod:`._data_arguments`): nothing to do at ``__init__``."""


def _gpu_memory(mode: str) -> dict[str, float]:
    """1.5.10's ``utilities.memory.get_memory_profile``: nvidia-smi's used memory per GPU (or its min and max)."""
    import shutil
    import subprocess

    smi = shutil.which("nvidia-smi")
    if smi is None:
        raise FileNotFoundError("nvidia-smi: command not found")
    query = [smi, "--query-gpu=memory.used", "--format=csv,nounits,noheader"]
    used = [float(x) for x in subprocess.run(query, capture_output=True, text=True, check=True).stdout.split()]
    found = {f"gpu_id: {index}/memory.used (MB)": memory for index, memory in enumerate(used)}
    if mode == "min_max":
        return {"min_gpu_mem": min(used), "max_gpu_mem": max(used)}
    return found


def _log_gpu_memory(root: str, trainer: Any, value: Any, given: Mapping[str, Any]) -> None:
    if not value or "CUDAAccelerator" not in {cls.__name__ for cls in type(trainer.accelerator).__mro__}:
        return  # 1.5 read it only on GPUs (``_device_type == DeviceType.GPU``)

    def on_train_batch_end(trainer: Any, pl_module: Any, *args: Any) -> None:
        epoch_loop = trainer.fit_loop.epoch_loop
        if epoch_loop._should_accumulate() and pl_module.automatic_optimization:
            return  # 1.5's update_train_step_metrics skipped accumulating steps
        devices = set(trainer.device_ids)
        for key, memory in _gpu_memory(value).items():
            if value == "min_max" or int(key.split("/")[0].split(":")[1]) in devices:
                pl_module.log(key, memory, prog_bar=False, logger=True, on_step=True, on_epoch=False)

    trainer.callbacks.append(_callback(root, {"on_train_batch_end": on_train_batch_end}))


def _accepted(root: str, trainer: Any, value: Any, given: Mapping[str, Any]) -> None:
    """Same results without it (``move_metrics_to_cpu``: the values logged are equal; they stay on the device)."""


def _resume(root: str, trainer: Any, value: Any, given: Mapping[str, Any]) -> None:
    trainer.__dict__[RESUME] = value


ARGUMENTS: dict[str, Argument] = {
    row.name: row
    for row in (
        Argument("weights_summary", "`callbacks=[ModelSummary(max_depth=-1)]`", _model_summary),
        Argument("process_position", "`callbacks=[TQDMProgressBar(process_position=N)]`", _process_position),
        Argument(
            "stochastic_weight_avg",
            "`callbacks=[StochasticWeightAveraging(swa_lrs=...)]`",
            _stochastic_weight_avg,
            "The shim adds 1.5's StochasticWeightAveraging() (swa_lrs: the optimizer's rates when averaging starts).",
        ),
        Argument("flush_logs_every_n_steps", "`the logger's own flush_logs_every_n_steps=`", _flush_logs),
        Argument(
            "terminate_on_nan",
            "`a check of the loss in training_step (detect_anomaly=True is close, not the same)`",
            _terminate_on_nan,
        ),
        Argument(
            "track_grad_norm",
            "`self.log_dict(pytorch_lightning.utilities.grad_norm(self, p)) in on_before_optimizer_step`",
            _track_grad_norm,
        ),
        Argument(
            "prepare_data_per_node",
            "`the prepare_data_per_node attribute of the LightningModule/LightningDataModule`",
            _data,
        ),
        Argument(
            "move_metrics_to_cpu",
            "",
            _accepted,
            "Nothing replaces it: the logged values are the same, they stay on the device they were logged on.",
        ),
        Argument("resume_from_checkpoint", "`trainer.fit(model, ckpt_path=...)`", _resume),
        Argument(
            "auto_lr_find",
            "`Tuner(trainer).lr_find(model)` (pytorch_lightning.tuner)",
            _accepted,
            "1.5 read it in trainer.tune() only, which the shim runs on 2.x's Tuner.",
        ),
        Argument(
            "auto_scale_batch_size",
            "`Tuner(trainer).scale_batch_size(model)` (pytorch_lightning.tuner)",
            _accepted,
            "1.5 read it in trainer.tune() only, which the shim runs on 2.x's Tuner.",
        ),
        Argument(
            "multiple_trainloader_mode",
            "`CombinedLoader(loaders, mode=...)` returned by train_dataloader()",
            _data,
            "The shim combines the train loaders in that mode, as 1.5 did.",
        ),
        Argument(
            "log_gpu_memory",
            "`callbacks=[DeviceStatsMonitor()]`",
            _log_gpu_memory,
            "The shim logs 1.5's nvidia-smi memory keys on GPUs (DeviceStatsMonitor's keys differ); nothing elsewhere.",
        ),
        Argument(
            "weights_save_path",
            "`ModelCheckpoint(dirpath=...)` (or default_root_dir=)",
            _accepted,
            "The shim puts the checkpoints of a ModelCheckpoint without dirpath under it, as 1.5 did.",
        ),
    )
}


def _notice(name: str, value: Any, replacement: str, details: str) -> Notice:
    try:
        deprecated, removed = flag_versions(name)  # as ``._trainer`` dates the flags the translation handles
    except KeyError:
        deprecated, removed = "1.5", _REMOVED_IN[name]
    old = f"`Trainer({name}={value!r})`"
    return Notice(old, replacement, deprecated, compat_removed_in(removed), details, rule=RULE)


_MAX_STEPS = Notice(
    "`Trainer(max_steps=None)`",
    "`max_steps=-1` (no limit)",
    "1.5",
    compat_removed_in("1.7"),
    rule="trainer_flag_values",
)


def taken(kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments of ``kwargs`` the shim applies itself: those the translation refuses alone."""
    return {
        name: value
        for name, value in kwargs.items()
        if name in ARGUMENTS and translate({name: value}).error is not None
    }


def _wrap_init(root: str, original: Callable[..., None]) -> Callable[..., None]:
    @functools.wraps(original)
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        mine = taken(kwargs)
        for name in mine:
            row = ARGUMENTS[name]
            warn(_notice(name, mine[name], row.replacement, row.details))
        given = dict(kwargs)
        if "max_steps" in kwargs and kwargs["max_steps"] is None:  # 1.5's "no limit"; 1.7 refuses None
            warn(_MAX_STEPS)
            kwargs = {**kwargs, "max_steps": -1}
        original(self, *args, **{key: value for key, value in kwargs.items() if key not in mine})
        self.__dict__.setdefault(GIVEN, {}).update(given)
        attach(self)
        call_init_hooks(self)  # 1.5's Callback.on_init_start/on_init_end, now that the callbacks are in place
        for name, value in mine.items():
            ARGUMENTS[name].apply(root, self, value, given)

    return __init__


def install_trainer_arguments(root: str, trainer: Any, log: PatchLog) -> None:
    """Wrap ``trainer.__init__`` (already the 1.5-flag ``__init__``) so the arguments above are applied."""
    log.set_attr(trainer, "__init__", _wrap_init(root, trainer.__dict__["__init__"]))
