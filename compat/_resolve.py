"""A name of the renames table, found in newcore: ``new_object("strategies.DDPStrategy")``.

Its own module because both sides of an old name read it: :mod:`compat.modules` (the old import paths) and
:mod:`compat._aliases` (an alias class rebuilt when unpickled).
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from compat._rows import NEW_ROOT_PACKAGE


def is_module(name: str) -> bool:
    """Whether ``name`` is an importable module (not an attribute path through one)."""
    try:
        return importlib.util.find_spec(name) is not None
    except ImportError:  # a parent is a module, not a package: ``name`` is an attribute path
        return False


def new_object(qualified: str) -> Any:
    """Import ``newcore.<qualified>``: the longest importable module prefix, then attributes."""
    parts = f"{NEW_ROOT_PACKAGE}.{qualified}".split(".")
    for cut in range(len(parts), 0, -1):
        module_name = ".".join(parts[:cut])
        if not is_module(module_name):
            continue
        obj: Any = importlib.import_module(module_name)
        for attr in parts[cut:]:
            obj = getattr(obj, attr)
        return obj
    raise ImportError(f"newcore has no {qualified!r}")
