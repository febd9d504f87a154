"""Double precision (float64) training."""

from __future__ import annotations

from collections.abc import Generator
from contextlib import contextmanager
from typing import Any

import torch

from newcore.plugins.precision.precision_plugin import PrecisionPlugin, cast_floating


class DoublePrecisionPlugin(PrecisionPlugin):
    """Casts the model to float64 and makes float64 the default dtype while the forward pass runs."""

    precision = "64"

    def convert_module(self, module: torch.nn.Module) -> torch.nn.Module:
        return module.double()

    @contextmanager
    def autocast(self) -> Generator[None, None, None]:
        # Tensors created inside the forward pass (torch.zeros, torch.rand) must match the float64 weights.
        # The default dtype is process-global, so restore it even if the forward pass raises.
        previous = torch.get_default_dtype()
        torch.set_default_dtype(torch.float64)
        try:
            yield
        finally:
            torch.set_default_dtype(previous)

    def convert_input(self, data: Any) -> Any:
        # float32 inputs would not multiply with the float64 weights.
        return cast_floating(data, torch.float64)

    def convert_output(self, data: Any) -> Any:
        return cast_floating(data, torch.get_default_dtype())
