"""compat.lightning: Lightning 1.5 code runs unchanged on the real, installed Lightning 2.x.

``install()`` patches whichever of ``pytorch_lightning`` / ``lightning.pytorch`` is installed (both if both):
the 1.5 import paths and names resolve, the ``Trainer`` accepts the 1.5 flags and answers the 1.5 properties,
and every old use warns once per call site through :mod:`compat._warn`. ``uninstall()`` restores Lightning
exactly as it was. Importing this package imports no Lightning.

Also: ``python -m compat.lightning SCRIPT [ARGS...]`` and ``pytest --compat-lightning``.
"""

from __future__ import annotations

__all__ = ["install", "installed", "uninstall"]


def install() -> None:
    """Activate the shim on the installed Lightning 2.x (idempotent)."""
    raise NotImplementedError("compat.lightning is being built (issue 13)")


def uninstall() -> None:
    """Restore Lightning, ``sys.modules``, the import hooks and the environment exactly as before ``install()``."""


def installed() -> bool:
    """Whether :func:`install` is active."""
    return False
