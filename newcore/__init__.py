"""newcore: the Lightning 1.6-style accelerator connector and strategy core.

The public layout mirrors Lightning 1.6 (``newcore.accelerators``, ``newcore.strategies``,
``newcore.plugins.precision``, ``newcore.plugins.environments``, ``newcore.plugins.io``), so one set
of codemod rules serves both ``pytorch_lightning`` and this project.
"""

from __future__ import annotations

from newcore.accelerators import AcceleratorRegistry
from newcore.connector import AcceleratorConnector
from newcore.exceptions import MisconfigurationException, MissingBackendError
from newcore.runner import Runner
from newcore.strategies import StrategyRegistry

__version__ = "0.1.0"

__all__ = [
    "AcceleratorConnector",
    "AcceleratorRegistry",
    "MisconfigurationException",
    "MissingBackendError",
    "Runner",
    "StrategyRegistry",
    "__version__",
]
