"""Native automatic mixed precision (``torch.autocast``), float16 or bfloat16."""

from __future__ import annotations

from collections.abc import Generator
from contextlib import contextmanager
from typing import Any

import torch

from newcore.exceptions import MisconfigurationException
from newcore.plugins.precision.precision_plugin import PrecisionPlugin, cast_floating, normalize_precision

_DTYPES = {"16": torch.float16, "bf16": torch.bfloat16}


class MixedPrecisionPlugin(PrecisionPlugin):
    """Runs the forward pass under ``torch.autocast`` and, for float16 on CUDA, scales the loss.

    Args:
        precision: ``"16"`` or ``"bf16"`` (``16``, ``"16-mixed"`` and ``"bf16-mixed"`` are accepted too).
        device: ``"cuda"`` or ``"cpu"``: the device type autocast applies to.
        scaler: a ``torch.amp.GradScaler`` to use instead of the default one (float16 only).
    """

    def __init__(self, precision: str | int, device: str, scaler: torch.amp.GradScaler | None = None) -> None:
        normalized = normalize_precision(precision)
        if normalized not in _DTYPES:
            raise MisconfigurationException(
                f"`{type(self).__name__}(precision={precision!r})` is not a mixed precision."
                " Pass 16 or 'bf16'; use `precision=32` or `precision=64` without this plugin."
            )
        if device not in ("cuda", "cpu"):
            # The connector passes the accelerator's device type here, so speak of the flags the user set.
            raise MisconfigurationException(
                f"`precision={precision!r}` is not supported on {device!r} devices: native AMP runs on 'cuda' or 'cpu'."
                " Pass `precision=32`, or `accelerator='cuda'`/`'cpu'` to train in mixed precision."
            )
        if scaler is not None and normalized == "bf16":
            raise MisconfigurationException(
                f"`precision='bf16'` does not scale the loss, but a scaler was passed: {scaler!r}."
                " Drop the scaler, or use `precision=16`."
            )
        self.precision = normalized
        self.device = device
        self._scaler = scaler

    @property
    def dtype(self) -> torch.dtype:
        """The dtype autocast computes in."""
        return _DTYPES[self.precision]

    @property
    def scaler(self) -> torch.amp.GradScaler | None:
        """The loss scaler (float16 on CUDA only), created on first use.

        Creating it at construction would touch CUDA in the parent process of a spawn or fork launch.
        """
        if self._scaler is None and self.precision == "16" and self.device == "cuda":
            self._scaler = self._make_scaler()
        return self._scaler

    def _make_scaler(self) -> torch.amp.GradScaler:
        return torch.amp.GradScaler("cuda")

    @contextmanager
    def autocast(self) -> Generator[None, None, None]:
        with torch.autocast(self.device, dtype=self.dtype):
            yield

    def convert_input(self, data: Any) -> Any:
        return cast_floating(data, self.dtype)

    def convert_output(self, data: Any) -> Any:
        # The loss after the forward is computed in full precision, as in Lightning Fabric.
        return cast_floating(data, torch.get_default_dtype())

    def backward(self, tensor: torch.Tensor, *args: Any, **kwargs: Any) -> None:
        scaler = self.scaler
        if scaler is not None:
            tensor = scaler.scale(tensor)
        super().backward(tensor, *args, **kwargs)

    def optimizer_step(self, optimizer: torch.optim.Optimizer, **kwargs: Any) -> Any:
        scaler = self.scaler
        if scaler is None:
            return super().optimizer_step(optimizer, **kwargs)
        if isinstance(optimizer, torch.optim.LBFGS):
            raise MisconfigurationException(
                "`precision=16` on CUDA scales the loss, which the LBFGS optimizer's closure-based line search"
                " cannot handle. Use `precision='bf16'` or `precision=32` with LBFGS."
            )
        result = scaler.step(optimizer, **kwargs)
        scaler.update()
        return result

    def state_dict(self) -> dict[str, Any]:
        # Before the first step there is no scaler state worth saving, and creating one here would touch CUDA.
        return self._scaler.state_dict() if self._scaler is not None else {}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        scaler = self.scaler
        if scaler is not None and state_dict:
            scaler.load_state_dict(state_dict)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(precision={self.precision!r}, device={self.device!r})"
