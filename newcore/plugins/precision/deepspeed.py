"""Precision under DeepSpeed, which casts and scales inside its own engine."""

from __future__ import annotations

from typing import Any

import torch

from newcore.exceptions import MisconfigurationException
from newcore.plugins.precision.precision_plugin import PrecisionPlugin, normalize_precision


class DeepSpeedPrecisionPlugin(PrecisionPlugin):
    """Records the precision for the DeepSpeed config; the engine does the casting and loss scaling.

    Args:
        precision: ``16``, ``"bf16"`` or ``32`` (aliases such as ``"16-mixed"`` are accepted).
    """

    def __init__(self, precision: str | int) -> None:
        normalized = normalize_precision(precision)
        if normalized not in ("16", "bf16", "32"):
            raise MisconfigurationException(
                f"`precision={precision!r}` is not supported with strategy='deepspeed':"
                " DeepSpeed trains in float16, bfloat16 or float32. Pass 16, 'bf16' or 32."
            )
        self.precision = normalized

    def backward(self, tensor: torch.Tensor, *args: Any, engine: Any = None, **kwargs: Any) -> None:
        """Run the backward pass through the DeepSpeed ``engine``, which applies its own loss scaling."""
        if engine is None:
            raise RuntimeError(
                "DeepSpeedPrecisionPlugin.backward needs the DeepSpeed engine (`engine=`): a plain backward pass"
                " would skip DeepSpeed's loss scaling and gradient partitioning."
            )
        engine.backward(tensor, *args, **kwargs)
