"""1.5 callback arguments whose default 2.x removed, given the value 1.5.10 used (``EarlyStopping()``, no ``monitor=``).

1.5.10's ``EarlyStopping(monitor=None)`` warned and monitored ``"early_stop_on"`` (``callbacks/early_stopping.py``);
2.x requires ``monitor`` and raises ``TypeError``. Under the shim the call gets 1.5's value, warning at the user's
line with rule ``removed_keywords``, which marks the call with a TODO.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from typing import Any

from compat._rows import compat_removed_in
from compat._warn import Notice, warn
from compat.lightning._patch import PatchLog

_MONITOR = Notice(
    "`EarlyStopping()` without `monitor=`",
    "`EarlyStopping(monitor=<the metric to watch>)`",
    "1.5",
    compat_removed_in("1.6"),
    details="1.5 monitored 'early_stop_on', which your module must log.",
    rule="removed_keywords",
    rewrites=False,
)


def _wrap_init(original: Callable[..., None]) -> Callable[..., None]:
    @functools.wraps(original)
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if not args and kwargs.get("monitor") is None:
            warn(_MONITOR)
            kwargs = {**kwargs, "monitor": "early_stop_on"}
        original(self, *args, **kwargs)

    return __init__


def install_callback_defaults(root: str, log: PatchLog) -> None:
    """Wrap ``<root>.callbacks.EarlyStopping.__init__``."""
    cls = importlib.import_module(f"{root}.callbacks").EarlyStopping
    log.set_attr(cls, "__init__", _wrap_init(cls.__dict__["__init__"]))
