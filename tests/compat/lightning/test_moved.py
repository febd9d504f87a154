"""Names that moved to another module or package, and renamed classes outside the strategy modules, at their 1.5
paths on the real 2.x: each row of the tables resolves to the object at its new home and warns once, naming it."""

from __future__ import annotations

import importlib
import warnings
from typing import Any

import pytest

from compat._warn import CompatDeprecationWarning
from compat.lightning._moved import moved_names


def _rows() -> list[Any]:
    return [
        pytest.param(module, name, id=f"{module}.{name} resolves at its new home")
        for module, name in sorted(moved_names())
    ]


def _import_from(module: str, name: str) -> tuple[Any, list[warnings.WarningMessage]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = getattr(importlib.import_module(f"pytorch_lightning.{module}"), name)
    return value, [w for w in caught if issubclass(w.category, CompatDeprecationWarning)]


@pytest.mark.parametrize(("module", "name"), _rows())
def test_moved_name_is_the_new_object(shim: Any, module: str, name: str) -> None:
    moved = moved_names()[(module, name)]
    new_module, _, new_name = moved.target("pytorch_lightning").rpartition(".")
    value, caught = _import_from(module, name)
    assert value is getattr(importlib.import_module(new_module), new_name)
    named = [w for w in caught if f"{module}.{name}`" in str(w.message)]
    assert len(named) == 1 and moved.target("pytorch_lightning") in str(named[0].message)


#: (statement, the 2.x object it must bind as ``x``): 1.5 code as the corpus projects write it.
IMPORTS = [
    pytest.param(
        "from pytorch_lightning.loggers import LightningLoggerBase as x",
        "pytorch_lightning.loggers.Logger",
        id="from loggers import LightningLoggerBase (lightning-bolts)",
    ),
    pytest.param(
        "import pytorch_lightning as pl; x = pl.loggers.LightningLoggerBase",
        "pytorch_lightning.loggers.Logger",
        id="pl.loggers.LightningLoggerBase (lightning-hydra-template)",
    ),
    pytest.param(
        "from pytorch_lightning.loggers.base import LightningLoggerBase as x",
        "pytorch_lightning.loggers.logger.Logger",
        id="loggers.base module",
    ),
    pytest.param(
        "from pytorch_lightning.utilities import _module_available as x",
        "lightning_utilities.core.imports.module_available",
        id="utilities._module_available (lightning-bolts)",
    ),
    pytest.param(
        "from pytorch_lightning.core.lightning import LightningModule as x",
        "pytorch_lightning.LightningModule",
        id="core.lightning module",
    ),
    pytest.param(
        "from pytorch_lightning.callbacks.base import Callback as x",
        "pytorch_lightning.Callback",
        id="callbacks.base module",
    ),
    pytest.param(
        "from pytorch_lightning.utilities.distributed import rank_zero_only as x",
        "pytorch_lightning.utilities.rank_zero.rank_zero_only",
        id="utilities.distributed.rank_zero_only",
    ),
]


@pytest.mark.parametrize(("statement", "expected"), IMPORTS)
def test_legacy_import_binds_the_2x_object(shim: Any, statement: str, expected: str) -> None:
    namespace: dict[str, Any] = {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        exec(statement, namespace)
    module, _, name = expected.rpartition(".")
    assert namespace["x"] is getattr(importlib.import_module(module), name)
    assert len([w for w in caught if issubclass(w.category, CompatDeprecationWarning)]) >= 1
