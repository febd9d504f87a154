"""What the XLA strategies share: importing ``torch_xla`` on demand, the device, the step boundary.

Nothing here imports ``torch_xla`` at module level: building or registering a TPU strategy must work
on machines without it (the connector only asks the probe whether it is installed).
"""

from __future__ import annotations

import os
from typing import Any

import torch

from newcore.exceptions import MissingBackendError

#: The variable that turns on torch-xla's debug metrics; the TPU accelerator's teardown removes it.
DEBUG_VARIABLE = "PT_XLA_DEBUG"

_INSTALL = "pip install 'lightning-migrate[xla]'"


def import_torch_xla(what: str) -> Any:
    """``torch_xla``, or :class:`MissingBackendError` naming ``what`` needed it."""
    try:
        import torch_xla
    except ImportError:
        raise MissingBackendError(what, package="torch_xla", install=_INSTALL) from None
    return torch_xla


def xla_model(what: str) -> Any:
    """``torch_xla.core.xla_model`` (the collectives), or :class:`MissingBackendError`."""
    import_torch_xla(what)
    import torch_xla.core.xla_model as xm

    return xm


def xla_device(what: str, index: int | None = None) -> torch.device:
    """The XLA device of this process (``index`` picks one of several it can address)."""
    torch_xla = import_torch_xla(what)
    # torch_xla.device() replaced xm.xla_device() (deprecated since 2.7); older releases only have the latter.
    if hasattr(torch_xla, "device"):
        device: torch.device = torch_xla.device(index)
        return device
    return torch.device(xla_model(what).xla_device(index))


def step_boundary(what: str) -> None:
    """Cut the lazy graph here and run it, so each optimizer step compiles to one graph instead of growing one."""
    torch_xla = import_torch_xla(what)
    # torch_xla.sync() replaced xm.mark_step() (deprecated since 2.7).
    if hasattr(torch_xla, "sync"):
        torch_xla.sync()
    else:
        xla_model(what).mark_step()


def export_debug() -> None:
    """Turn on XLA debug metrics for this process; :meth:`TPUAccelerator.teardown` turns them off."""
    os.environ[DEBUG_VARIABLE] = "1"
