"""compat.lightning: Lightning 1.5 code runs unchanged on the real, installed Lightning 2.x, warning at each old use.

``install()`` patches whichever of ``pytorch_lightning`` / ``lightning.pytorch`` is installed (both if both):

* the 1.5 import paths and names resolve (:mod:`compat.lightning._names`): ``pytorch_lightning.plugins.DDPPlugin``
  is ``DDPStrategy``, ``DDPSpawnPlugin`` a DDPStrategy subclass with ``start_method="spawn"``, the enums are string
  enums, and what 2.x removed raises :class:`RemovedFeatureError` (naming the replacement) when instantiated;
* ``Trainer(...)`` takes the 1.5 flags through :func:`legacy_api.translate.translate`, the translation
  ``migrate-trainer`` shares, and ``Trainer.from_argparse_args`` / ``add_argparse_args`` are back
  (:mod:`compat.lightning._trainer`); the 1.5 Trainer properties answer (:mod:`compat.lightning._properties`);
* the renamed keywords (``trainer.test(test_dataloaders=...)``) are passed under their new names
  (:mod:`compat.lightning._keywords`); names that moved resolve at their 1.5 paths (:mod:`compat.lightning._moved`);
* ``LightningDataModule.size()``/``dims`` are back (:mod:`compat.lightning._datamodule`);
* a module's ``training_epoch_end``/``*_step_end`` hooks run as 1.5 ran them (:mod:`compat.lightning._epoch_end`);
* processes Lightning starts get the shim too (:mod:`compat.lightning._children`).

Every old use warns through :mod:`compat._warn` (once per call site, at the user's line, rank zero only, naming the
replacement and the ``migrate-trainer`` rule), so ``pytest --compat-audit`` lists them. ``uninstall()`` restores
Lightning, ``sys.modules``, ``sys.meta_path`` and the environment exactly (every change is in a patch log).
Importing this package imports no Lightning. Also: ``python -m compat.lightning SCRIPT [ARGS...]`` and
``pytest --compat-lightning``.
"""

from __future__ import annotations

import importlib.util
from typing import Any

__all__ = ["RemovedFeatureError", "install", "installed", "roots", "uninstall"]

#: The Lightning packages the shim knows, by import name.
ROOTS = ("pytorch_lightning", "lightning.pytorch")

_log: Any = None


def roots() -> tuple[str, ...]:
    """The Lightning packages installed here (without importing them)."""
    found = []
    for root in ROOTS:
        try:
            if importlib.util.find_spec(root) is not None:
                found.append(root)
        except ImportError:  # ``lightning`` absent: find_spec("lightning.pytorch") imports the parent
            continue
    return tuple(found)


def install() -> None:
    """Activate the shim on the installed Lightning 2.x (idempotent: a second call changes nothing)."""
    global _log
    if _log is not None:
        return
    from compat.lightning._callback_defaults import install_callback_defaults
    from compat.lightning._callback_hooks import install_callback_hooks
    from compat.lightning._checkpoints import install_checkpoints
    from compat.lightning._children import activate_children, start_audit
    from compat.lightning._connector import install_connector
    from compat.lightning._data_arguments import install_data_arguments
    from compat.lightning._datamodule import install_datamodule
    from compat.lightning._epoch_end import install_epoch_end
    from compat.lightning._epoch_hooks import install_epoch_hooks
    from compat.lightning._hparams_setter import install_hparams_setter
    from compat.lightning._keywords import install_keywords
    from compat.lightning._legacy_callbacks import install_legacy_callbacks
    from compat.lightning._loggers import install_loggers
    from compat.lightning._names import LegacyModuleFinder, install_names
    from compat.lightning._optimizer_step import install_optimizer_step
    from compat.lightning._optimizers import install_optimizers
    from compat.lightning._patch import PatchLog
    from compat.lightning._properties import install_properties
    from compat.lightning._removed import install_removed
    from compat.lightning._trainer import install_trainer
    from compat.lightning._trainer_arguments import install_trainer_arguments
    from compat.lightning._tune import install_tune
    from compat.lightning._unserved_hooks import install_unserved_hooks

    found = roots()
    if not found:
        raise ImportError("compat.lightning needs Lightning 2.x: pip install 'lightning-migrate[lightning]'")
    log = PatchLog()
    try:
        for root in found:
            install_names(root, log)
            trainer = install_trainer(root, log)
            install_trainer_arguments(root, trainer, log)
            install_data_arguments(root, log)
            install_tune(root, trainer, log)
            install_properties(root, trainer, log)
            install_connector(root, log)
            install_checkpoints(root, trainer, log)  # before the keywords: its wrappers see the 2.x keyword names
            install_keywords(root, log)
            install_loggers(root, trainer, log)
            install_epoch_end(root, trainer, log)
            install_unserved_hooks(importlib.import_module(root), trainer, log)
            install_callback_hooks(trainer, log)
            install_callback_defaults(root, log)
            install_legacy_callbacks(root, log)
            install_optimizer_step(root, log)
            install_optimizers(root, log)
            install_epoch_hooks(root, log)
            install_datamodule(root, log)
            install_hparams_setter(root, log)
        install_removed(found, log)  # after the names it falls back from, before the finder of the old modules
        log.add_finder(LegacyModuleFinder(found, log))
        activate_children(log)
    except BaseException:
        log.undo()
        raise
    _log = log
    start_audit()


def uninstall() -> None:
    """Restore Lightning, ``sys.modules``, the import hooks and the environment exactly as before ``install()``."""
    global _log
    if _log is None:
        return
    log, _log = _log, None
    log.undo()


def installed() -> bool:
    """Whether :func:`install` is active."""
    return _log is not None


def __getattr__(name: str) -> Any:
    if name == "RemovedFeatureError":  # Lightning's MisconfigurationException is imported only when asked for
        from compat.lightning._names import removed_feature_error

        return removed_feature_error()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
