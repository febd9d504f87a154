"""Precision on Graphcore IPUs."""

from __future__ import annotations

import torch

from newcore.exceptions import MisconfigurationException
from newcore.plugins.precision.precision_plugin import PrecisionPlugin, normalize_precision


class IPUPrecisionPlugin(PrecisionPlugin):
    """IPUs train in float32, or in float16 with the model cast to half (poptorch has no autocast).

    Args:
        precision: ``16`` or ``32`` (strings and aliases such as ``"16-mixed"`` are accepted).
    """

    def __init__(self, precision: str | int) -> None:
        normalized = normalize_precision(precision)
        if normalized not in ("16", "32"):
            raise MisconfigurationException(
                f"`precision={precision!r}` is not supported with accelerator='ipu': IPUs train in 16 or 32."
                " Pass `precision=16` or `precision=32`."
            )
        self.precision = normalized

    def convert_module(self, module: torch.nn.Module) -> torch.nn.Module:
        return module.half() if self.precision == "16" else module
