"""compat: Lightning 1.5 code keeps running on newcore, and is told, precisely, what to change.

* ``compat.AcceleratorConnector`` and ``compat.Runner`` take the 1.5 flags (``gpus=2``,
  ``accelerator="ddp"``, ``amp_backend``...) and answer the 1.5 properties (``use_ddp``, ``num_gpus``...);
* the 1.5 import paths work with ``compat`` as the root: ``from compat.plugins import DDPPlugin``;
* every use warns with a :class:`CompatDeprecationWarning` (a ``FutureWarning``, shown by default) that
  names the replacement and the lightning-migrate release that drops the shim;
* ``pytest --compat-audit`` lists them all (see :mod:`compat.pytest_plugin`).
"""

from __future__ import annotations

from compat._warn import CompatDeprecationWarning, CompatFallbackWarning, Notice
from compat.connector import AcceleratorConnector
from compat.modules import module_getattr
from compat.runner import Runner
from newcore.exceptions import MisconfigurationException

__all__ = [
    "AcceleratorConnector",
    "CompatDeprecationWarning",
    "CompatFallbackWarning",
    "MisconfigurationException",
    "Notice",
    "Runner",
]

__getattr__ = module_getattr(__name__)
