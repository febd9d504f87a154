"""The full-precision (float32) plugin, and the base of every precision plugin."""

from __future__ import annotations

from collections.abc import Generator
from contextlib import contextmanager
from typing import Any

import torch


class PrecisionPlugin:
    """Plain float32 training: no casting, no scaling.

    Subclasses change how modules are converted, how the forward pass is autocast and how the
    backward pass and optimizer step are done.
    """

    #: The normalized precision this plugin trains in: ``"32"``, ``"16"``, ``"bf16"`` or ``"64"``.
    #: A plain attribute, not a ``ClassVar``: plugins such as ``MixedPrecisionPlugin`` set it per instance.
    precision: str = "32"

    def convert_module(self, module: torch.nn.Module) -> torch.nn.Module:
        """Cast ``module`` to the plugin's parameter dtype (a no-op for float32)."""
        return module

    @contextmanager
    def autocast(self) -> Generator[None, None, None]:
        """The context in which the forward pass runs."""
        yield

    def convert_input(self, data: Any) -> Any:
        """The forward pass's inputs in the plugin's compute dtype (unchanged for float32)."""
        return data

    def convert_output(self, data: Any) -> Any:
        """The forward pass's outputs in the dtype the code after it expects (unchanged for float32)."""
        return data

    def backward(self, tensor: torch.Tensor, *args: Any, **kwargs: Any) -> None:
        """Run the backward pass for ``tensor``."""
        tensor.backward(*args, **kwargs)  # type: ignore[no-untyped-call]

    def optimizer_step(self, optimizer: torch.optim.Optimizer, **kwargs: Any) -> Any:
        """Step ``optimizer``."""
        return optimizer.step(**kwargs)

    def state_dict(self) -> dict[str, Any]:
        """State to save in a checkpoint (e.g. a grad scaler's)."""
        return {}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore what :meth:`state_dict` saved."""

    def teardown(self) -> None:
        """Release what the plugin created."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(precision={self.precision!r})"


#: Every spelling of ``precision=`` newcore accepts, mapped to its normalized value.
#: Lightning 1.6 spellings (ints and their strings, ``"bf16"``) and the 2.0 ones (``"16-mixed"``, ...).
PRECISION_ALIASES: dict[object, str] = {
    64: "64",
    "64": "64",
    "64-true": "64",
    32: "32",
    "32": "32",
    "32-true": "32",
    16: "16",
    "16": "16",
    "16-mixed": "16",
    "bf16": "bf16",
    "bf16-mixed": "bf16",
}


def cast_floating(data: Any, dtype: torch.dtype) -> Any:
    """``data`` with its floating-point tensors (in nested dicts, lists and tuples) cast to ``dtype``."""
    if isinstance(data, torch.Tensor):
        return data.to(dtype) if torch.is_floating_point(data) else data
    if isinstance(data, dict):
        return {key: cast_floating(value, dtype) for key, value in data.items()}
    if isinstance(data, tuple) and hasattr(data, "_fields"):  # a named tuple
        return type(data)(*(cast_floating(value, dtype) for value in data))
    if isinstance(data, (list, tuple)):
        return type(data)(cast_floating(value, dtype) for value in data)
    return data


def normalize_precision(value: object) -> str | None:
    """The normalized precision (``"64"``, ``"32"``, ``"16"``, ``"bf16"``) for ``value``, or ``None`` if invalid."""
    if isinstance(value, bool):
        return None
    key = value.strip().lower() if isinstance(value, str) else value
    try:
        return PRECISION_ALIASES.get(key)
    except TypeError:  # unhashable input such as a list
        return None
