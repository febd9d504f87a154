"""Which checkpoint ``fit``/``validate``/``test``/``predict`` load, and how, as 1.5 code expects.

* ``Trainer(resume_from_checkpoint=p)`` (kept by :mod:`._trainer_arguments`): 1.5.10's ``fit`` ran
  ``ckpt_path = ckpt_path or self.resume_from_checkpoint`` and forgot the path once a fit resumed from it
  (``CheckpointConnector.resume_end``); a ``fit(ckpt_path=...)`` of its own left it for the next ``fit``. The shim
  does the same, and ``trainer.resume_from_checkpoint`` answers what 1.5 answered (the path until it was used).
* torch >= 2.6 loads with ``weights_only=True`` unless told otherwise, and 2.x Lightning passes that default on;
  1.5 ran on torches that unpickled everything, and 1.5 code has no ``weights_only`` to pass. A checkpoint this
  same Trainer wrote (``ckpt_path="best"``/``"last"``/``"hpc"``, or a file under the ``dirpath`` of one of its own
  ``ModelCheckpoint`` callbacks) is loaded with ``weights_only=False``, with a warning; any other path (one the
  user names, a resume path from elsewhere) keeps torch's safe default: unpickling a foreign file runs its code.
* ``ModelCheckpoint(save_last=True)``: 1.5.10's ``save_checkpoint`` wrote ``last.ckpt`` at every save point (each
  validation end, epoch end, ``every_n_train_steps``), and ``resume_from_checkpoint="last.ckpt"`` relied on it;
  2.6 writes it only where a top-k file was written too, so a run whose monitored value stopped improving resumes
  from an older epoch. The shim writes it at every save point again (``save_last="link"`` is left to 2.x).
* ``Trainer(weights_save_path=d)``: a ModelCheckpoint without ``dirpath`` saves under ``d/<logger name>/<version>/
  checkpoints`` (``d/checkpoints`` without a logger), as 1.5.10's ``__resolve_ckpt_dir`` did; ``trainer.
  weights_save_path`` answers ``d``, else ``default_root_dir``.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import os
from collections.abc import Callable
from typing import Any

from compat._rows import compat_removed_in
from compat._warn import Notice, warn
from compat.lightning._patch import PatchLog
from compat.lightning._trainer import GIVEN
from compat.lightning._trainer_arguments import RESUME

#: The Trainer methods that take ``ckpt_path`` and ``weights_only`` in 2.x.
ENTRY_POINTS = ("fit", "validate", "test", "predict")
#: ``ckpt_path`` values that name a checkpoint the trainer itself wrote (2.x's ``_parse_ckpt_path``).
OWN_NAMES = ("best", "last", "hpc")

_RESUME_NOTICE = Notice(
    "`trainer.resume_from_checkpoint`",
    "`trainer.ckpt_path` (set by fit(ckpt_path=...))",
    "1.5",
    compat_removed_in("2.0"),
    rule="removed_attributes",
)


def _unpickle_notice(method: str, path: Any) -> Notice:
    return Notice(
        f"`trainer.{method}(ckpt_path={path!r})` without `weights_only`",
        f"`trainer.{method}(ckpt_path={path!r}, weights_only=False)`",
        "2.4",
        compat_removed_in("2.0"),
        "torch >= 2.6 loads only tensors by default; the shim loads this checkpoint, which this Trainer wrote, "
        "in full as 1.5 did. Paths it did not write keep torch's default.",
    )


def _dirpaths(trainer: Any) -> list[str]:
    found = []
    for callback in getattr(trainer, "checkpoint_callbacks", []):
        dirpath = getattr(callback, "dirpath", None)
        if dirpath:
            found.append(os.path.realpath(os.fspath(dirpath)))
    return found


def written_here(trainer: Any, path: Any) -> bool:
    """Whether ``ckpt_path`` names a checkpoint this trainer wrote (see the module docstring)."""
    if path is None:
        return False
    if isinstance(path, str) and path in OWN_NAMES:
        return True
    try:
        real = os.path.realpath(os.fspath(path))
    except TypeError:
        return False
    return any(os.path.commonpath([real, folder]) == folder for folder in _dirpaths(trainer))


def _wrap(method: str, original: Callable[..., Any]) -> Callable[..., Any]:
    signature = inspect.signature(original)

    @functools.wraps(original)
    def entry(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            bound = signature.bind(self, *args, **kwargs)
        except TypeError:
            return original(self, *args, **kwargs)  # let Lightning say what is wrong with the call
        given = bound.arguments
        if method == "fit" and given.get("ckpt_path") is None and self.__dict__.get(RESUME) is not None:
            given["ckpt_path"] = self.__dict__.pop(RESUME)  # 1.5: used once, by the fit that resumes from it
        path = given.get("ckpt_path")
        if "weights_only" in signature.parameters and given.get("weights_only") is None and written_here(self, path):
            warn(_unpickle_notice(method, path))
            given["weights_only"] = False
        return original(*bound.args, **bound.kwargs)

    return entry


_LAST_NOTICE = Notice(
    "`ModelCheckpoint(save_last=True)` writing last.ckpt only with a top-k checkpoint (Lightning 2.6)",
    "",
    "2.6",
    compat_removed_in("2.0"),
    "1.5 wrote last.ckpt at every save point; the shim does too, so resuming from it continues the latest epoch.",
)
#: On a ModelCheckpoint: the global step whose last.ckpt the shim wrote (2.x's own write at that step is skipped).
_LAST_STEP = "_compat_lightning_last_step"


def _wrap_topk(original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def _save_topk_checkpoint(self: Any, trainer: Any, monitor_candidates: Any) -> Any:
        result = original(self, trainer, monitor_candidates)
        if self.save_last is True and self._last_global_step_saved != trainer.global_step:
            warn(_LAST_NOTICE)
            self._save_last_checkpoint(trainer, monitor_candidates)
            self.__dict__[_LAST_STEP] = trainer.global_step
        return result

    return _save_topk_checkpoint


def _wrap_last(original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def _save_last_checkpoint(self: Any, trainer: Any, monitor_candidates: Any) -> Any:
        if self.__dict__.get(_LAST_STEP) == trainer.global_step and self.last_model_path:
            return None  # written by the shim at this step already
        return original(self, trainer, monitor_candidates)

    return _save_last_checkpoint


def _weights_save_path(trainer: Any) -> str | None:
    given = trainer.__dict__.get(GIVEN, {}).get("weights_save_path")
    return os.path.normpath(os.fspath(given)) if given else None


def _wrap_resolve(original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def resolve(self: Any, trainer: Any) -> Any:
        root = _weights_save_path(trainer)
        if self.dirpath is not None or root is None or root == os.path.normpath(trainer.default_root_dir):
            return original(self, trainer)
        if not trainer.loggers:
            return os.path.join(root, "checkpoints")
        logger = trainer.loggers[0]
        version = logger.version if isinstance(logger.version, str) else f"version_{logger.version}"
        return os.path.join(root, str(logger.name), version, "checkpoints")

    return resolve


_WEIGHTS_NOTICE = Notice(
    "`trainer.weights_save_path`",
    "`the checkpoint callback's dirpath` (or trainer.default_root_dir)",
    "1.6",
    compat_removed_in("1.8"),
    rule="removed_attributes",
)


def _weights_save_path_property(self: Any) -> str:
    warn(_WEIGHTS_NOTICE)
    return _weights_save_path(self) or os.path.normpath(self.default_root_dir)


def _resume_from_checkpoint(self: Any) -> Any:
    warn(_RESUME_NOTICE)
    return self.__dict__.get(RESUME)


def install_checkpoints(root: str, trainer: Any, log: PatchLog) -> None:
    """Wrap the Trainer's entry points (before ``._keywords`` wraps them: the keywords arrive renamed) and
    ModelCheckpoint's last-checkpoint writes."""
    for method in ENTRY_POINTS:
        original = trainer.__dict__.get(method)
        if original is not None:
            log.set_attr(trainer, method, _wrap(method, original))
    if not hasattr(trainer, "resume_from_checkpoint"):
        log.set_attr(trainer, "resume_from_checkpoint", property(_resume_from_checkpoint))
    if not hasattr(trainer, "weights_save_path"):
        log.set_attr(trainer, "weights_save_path", property(_weights_save_path_property))
    checkpoint = importlib.import_module(f"{root}.callbacks").ModelCheckpoint
    resolve = "_ModelCheckpoint__resolve_ckpt_dir"  # name-mangled: 1.5's weights_save_path decided it
    if resolve in checkpoint.__dict__:
        log.set_attr(checkpoint, resolve, _wrap_resolve(checkpoint.__dict__[resolve]))
    for name, wrap in (("_save_topk_checkpoint", _wrap_topk), ("_save_last_checkpoint", _wrap_last)):
        if name in checkpoint.__dict__:
            log.set_attr(checkpoint, name, wrap(checkpoint.__dict__[name]))
