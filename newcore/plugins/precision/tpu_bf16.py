"""bfloat16 on TPUs."""

from __future__ import annotations

import os

import torch

from newcore.plugins.precision.tpu import TPUPrecisionPlugin

_FLAG = "XLA_USE_BF16"


class TPUBf16PrecisionPlugin(TPUPrecisionPlugin):
    """bfloat16 on TPUs: XLA stores float32 tensors as bfloat16 when ``XLA_USE_BF16=1``.

    The variable is process-wide, so it is exported only when a model is set up (:meth:`convert_module`)
    and :meth:`teardown` restores what was there before.
    """

    precision = "bf16"

    def __init__(self) -> None:
        self._exported = False
        self._previous: str | None = None

    def convert_module(self, module: torch.nn.Module) -> torch.nn.Module:
        if not self._exported:
            self._previous = os.environ.get(_FLAG)
            self._exported = True
        os.environ[_FLAG] = "1"
        return module

    def teardown(self) -> None:
        if not self._exported:
            return
        if self._previous is None:
            os.environ.pop(_FLAG, None)
        else:
            os.environ[_FLAG] = self._previous
        self._exported = False
