"""NVIDIA apex AMP (the pre-``torch.cuda.amp`` float16 implementation)."""

from __future__ import annotations

from typing import Any

import torch

from newcore.exceptions import MisconfigurationException, MissingBackendError
from newcore.plugins.precision.precision_plugin import PrecisionPlugin
from newcore.probe import current_probe

_AMP_LEVELS = ("O0", "O1", "O2", "O3")
_APEX_INSTALL = "pip install -v --no-build-isolation git+https://github.com/NVIDIA/apex"


class ApexMixedPrecisionPlugin(PrecisionPlugin):
    """Float16 through apex's ``amp.initialize`` at optimisation level ``amp_level`` (``"O0"``..``"O3"``)."""

    precision = "16"

    def __init__(self, amp_level: str = "O2") -> None:
        if amp_level not in _AMP_LEVELS:
            raise MisconfigurationException(
                f"`amp_level={amp_level!r}` is not an apex optimisation level."
                f" Pass one of {', '.join(repr(level) for level in _AMP_LEVELS)} (capital letter O)."
            )
        if not current_probe().has_package("apex"):
            error = MissingBackendError("`amp_backend='apex'`", package="apex", install=_APEX_INSTALL)
            error.args = (
                f"{error} Native AMP needs no apex: pass `precision=16` (CUDA), or `precision='bf16'` on CPU.",
            )
            raise error
        self.amp_level = amp_level

    def initialize(self, model: torch.nn.Module, optimizers: list[torch.optim.Optimizer]) -> Any:
        """Let apex patch ``model`` and ``optimizers``; returns apex's ``(model, optimizers)``."""
        from apex import amp

        return amp.initialize(model, optimizers, opt_level=self.amp_level)

    def backward(
        self, tensor: torch.Tensor, *args: Any, optimizer: torch.optim.Optimizer | None = None, **kwargs: Any
    ) -> None:
        """Scale ``tensor`` with apex's loss scaler for ``optimizer`` before the backward pass."""
        if optimizer is None:
            super().backward(tensor, *args, **kwargs)
            return
        from apex import amp

        with amp.scale_loss(tensor, optimizer) as scaled:
            scaled.backward(*args, **kwargs)

    def state_dict(self) -> dict[str, Any]:
        from apex import amp

        state: dict[str, Any] = amp.state_dict()
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        from apex import amp

        amp.load_state_dict(state_dict)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(amp_level={self.amp_level!r})"
