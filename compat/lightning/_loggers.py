"""``trainer.logger`` of a Trainer given a list of loggers: 1.5's ``LoggerCollection``, not 2.x's first logger.

1.5.10's ``LoggerConnector.configure_logger`` wrapped any iterable passed as ``logger=`` in a ``LoggerCollection``,
so ``Trainer(logger=[])`` had a ``trainer.logger`` whose ``log_hyperparams`` did nothing (lightning-hydra-template
calls it with no logger configured), and ``logger=[a, b]`` logged to both. 2.x's ``trainer.logger`` is the first
logger or None. While the shim is installed, reading ``trainer.logger`` (or ``module.logger``) of a Trainer built
from a list returns a collection with 1.5.10's members (``loggers/base.py``), warning once per call site.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from typing import Any

from compat._rows import compat_removed_in
from compat._warn import Notice, warn
from compat.lightning._patch import PatchLog
from compat.lightning._trainer import GIVEN

NOTICE = Notice(
    "`trainer.logger` of `Trainer(logger=[...])` (1.5's LoggerCollection)",
    "`trainer.loggers` (a list)",
    "1.6",
    compat_removed_in("1.8"),
    "2.x's trainer.logger is the first logger of the list, or None.",
    rule="trainer_loggers",
)
#: Set on each trainer: (the loggers list it wraps, the collection), so one list keeps one collection.
CACHE = "_compat_lightning_logger_collection"


def _collection_class(logger_base: type) -> type:
    """1.5.10's ``LoggerCollection`` as a subclass of the 2.x ``Logger`` (each call forwarded to every logger)."""

    def each(method: str) -> Any:
        def forward(self: Any, *args: Any, **kwargs: Any) -> None:
            for logger in self._logger_iterable:
                getattr(logger, method)(*args, **kwargs)

        forward.__name__ = method
        return forward

    def joined(attr: str) -> property:
        return property(lambda self: "_".join(str(getattr(logger, attr)) for logger in self._logger_iterable))

    def __init__(self: Any, loggers: Iterable[Any]) -> None:
        base: Any = logger_base
        base.__init__(self)
        self._logger_iterable = loggers

    namespace: dict[str, Any] = {
        "__doc__": "Lightning 1.5's LoggerCollection: each call goes to every logger of the list.",
        "_compat_stands_for": "LoggerCollection",  # isinstance(x, pytorch_lightning.loggers.LoggerCollection) holds
        "__init__": __init__,
        "__getitem__": lambda self, index: list(self._logger_iterable)[index],
        "__len__": lambda self: len(self._logger_iterable),
        "experiment": property(lambda self: [logger.experiment for logger in self._logger_iterable]),
        "save_dir": property(lambda self: None),  # 1.5: checkpoints go to the default location with several loggers
        "name": joined("name"),
        "version": joined("version"),
        "__module__": __name__,
    }
    for method in ("after_save_checkpoint", "log_metrics", "log_hyperparams", "log_graph", "save", "finalize"):
        namespace[method] = each(method)
    for method in ("log_text", "log_image"):  # 1.5 forwarded these; 2.x loggers have them where they support them
        namespace[method] = each(method)
    return type("LoggerCollection", (logger_base,), namespace)


def _from_list(given: Any) -> bool:
    return isinstance(given, Iterable) and not isinstance(given, str | bytes) and not hasattr(given, "log_metrics")


def install_loggers(root: str, trainer: Any, log: PatchLog) -> None:
    """Make ``trainer.logger`` (the class's property) answer 1.5's collection for a Trainer built from a list."""
    original: property = trainer.__dict__["logger"]
    collection = _collection_class(importlib.import_module(f"{root}.loggers").Logger)

    def getter(self: Any) -> Any:
        if not _from_list(self.__dict__.get(GIVEN, {}).get("logger")):
            return original.fget(self)  # type: ignore[misc]
        warn(NOTICE)
        loggers = self.loggers
        cached = self.__dict__.get(CACHE)
        if cached is None or cached[0] is not loggers:
            cached = (loggers, collection(loggers))
            self.__dict__[CACHE] = cached
        return cached[1]

    log.set_attr(trainer, "logger", property(getter, original.fset, doc=original.__doc__))
