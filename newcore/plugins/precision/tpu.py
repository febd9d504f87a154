"""Full precision on TPUs."""

from __future__ import annotations

from typing import Any

import torch

from newcore.exceptions import MissingBackendError
from newcore.plugins.precision.precision_plugin import PrecisionPlugin


class TPUPrecisionPlugin(PrecisionPlugin):
    """Float32 on TPUs: the optimizer step goes through ``xm.optimizer_step`` so gradients are reduced."""

    def optimizer_step(self, optimizer: torch.optim.Optimizer, **kwargs: Any) -> Any:
        try:
            import torch_xla.core.xla_model as xm
        except ImportError:
            raise MissingBackendError(
                f"`{type(self).__name__}`", package="torch_xla", install="pip install 'lightning-migrate[xla]'"
            ) from None
        return xm.optimizer_step(optimizer, optimizer_args=kwargs)
