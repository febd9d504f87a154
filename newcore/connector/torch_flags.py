"""Phase 0: ``deterministic=`` and ``benchmark=`` act on torch's real global state."""

from __future__ import annotations

import os
import warnings
from typing import Literal

import torch

from newcore.exceptions import MisconfigurationException

Deterministic = bool | Literal["warn"] | None

#: cuBLAS needs a fixed workspace to be deterministic (ignored once cuBLAS has initialised).
_CUBLAS_WORKSPACE = ":4096:8"


def set_torch_flags(deterministic: Deterministic, benchmark: bool | None) -> None:
    """Apply the flags to torch. ``None`` leaves torch's current setting untouched.

    ``deterministic=True`` turns on ``torch.use_deterministic_algorithms`` and sets
    ``CUBLAS_WORKSPACE_CONFIG`` if the user has not; ``"warn"`` uses warn-only mode. When
    deterministic and ``benchmark`` is not given, cuDNN benchmarking is switched off, as it would
    defeat determinism.
    """
    if deterministic is not None and not isinstance(deterministic, bool) and deterministic != "warn":
        raise MisconfigurationException(
            f"`deterministic={deterministic!r}` is not valid: pass True, False, 'warn' or leave it unset."
        )
    if benchmark is not None and not isinstance(benchmark, bool):
        raise MisconfigurationException(f"`benchmark={benchmark!r}` is not valid: pass True, False or leave it unset.")
    if deterministic and benchmark:
        warnings.warn(
            "You passed `deterministic=True` and `benchmark=True`: cuDNN benchmarking picks algorithms by timing,"
            " so results may still vary between runs. Leave `benchmark` unset for reproducible runs.",
            UserWarning,
            stacklevel=3,
        )
    if deterministic is not None:
        torch.use_deterministic_algorithms(bool(deterministic), warn_only=deterministic == "warn")
        if deterministic:
            os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", _CUBLAS_WORKSPACE)
    if benchmark is not None:
        torch.backends.cudnn.benchmark = benchmark
    elif deterministic:
        torch.backends.cudnn.benchmark = False
