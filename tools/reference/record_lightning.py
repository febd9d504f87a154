"""The Lightning release loaded in a reference venv: importing it once, its major version, its loggers, its registries.

``record.py`` imports Lightning in the parent, before the per-case forks, so that no case pays for the import; every
other recording module asks this one which major it runs under. Standard library only at import time.
"""

from __future__ import annotations

import contextlib
import logging
import warnings
from typing import Any


def _import_lightning() -> Any:
    """Import Lightning once in the parent (quietly) and everything a case may touch."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import importlib

        # Imported lazily by torch on first use (e.g. torch.use_deterministic_algorithms pulls in
        # torch._inductor, ~1 s); importing them once here keeps every forked case fast.
        for name in WARM_IMPORTS:
            with contextlib.suppress(ImportError):
                importlib.import_module(name)
        import pytorch_lightning as pl
        import pytorch_lightning.accelerators
        import pytorch_lightning.plugins
        import pytorch_lightning.plugins.environments

        with contextlib.suppress(ImportError):
            import pytorch_lightning.strategies
        if _is_2x(pl.__version__):
            import lightning_fabric.accelerators.xla
            import lightning_fabric.plugins.environments  # noqa: F401
            import pytorch_lightning.plugins.precision
        else:
            import pytorch_lightning.utilities.xla_device
    # Lightning attaches a stream handler to its root logger; the child captures records instead.
    for name in _LOGGERS:
        for handler in list(logging.getLogger(name).handlers):
            logging.getLogger(name).removeHandler(handler)
    return pl


# 2.x also logs through the bundled lightning_fabric (a package 1.x does not have: no records there).
_LOGGERS = ("pytorch_lightning", "lightning_fabric")


def _is_2x(version: str) -> bool:
    return int(version.split(".")[0]) >= 2


WARM_IMPORTS = (
    "torch._inductor",
    "torch._dynamo",
    "torch.distributed",
    "torch.distributed.algorithms.ddp_comm_hooks",
    "torch.nn.parallel",
    "torch.amp",
    "torch.cuda.amp",
    "torch.utils.tensorboard",
    "fairscale.nn",
    "fairscale.optim",
)


def _registries() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    try:
        from pytorch_lightning.strategies import StrategyRegistry

        out["StrategyRegistry"] = sorted(StrategyRegistry.available_strategies())
    except ImportError:
        from pytorch_lightning.plugins import TrainingTypePluginsRegistry

        out["TrainingTypePluginsRegistry"] = sorted(TrainingTypePluginsRegistry.available_plugins())
    try:
        from pytorch_lightning.accelerators import AcceleratorRegistry

        out["AcceleratorRegistry"] = sorted(AcceleratorRegistry.available_accelerators())
    except ImportError:
        pass
    try:
        from pytorch_lightning.utilities.enums import DistributedType

        out["DistributedType"] = [t.value for t in DistributedType]
    except ImportError:
        pass
    return out

