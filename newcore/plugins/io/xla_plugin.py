"""Checkpoints of XLA (TPU) tensors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from newcore.exceptions import MissingBackendError
from newcore.plugins.io.torch_plugin import TorchCheckpointIO, _local_path


class XLACheckpointIO(TorchCheckpointIO):
    """Saves through ``torch_xla``'s ``xm.save``, which moves tensors to the CPU and writes on one process only.

    Loading needs no XLA: the file holds CPU tensors.
    """

    def save_checkpoint(self, checkpoint: dict[str, Any], path: str | Path, storage_options: Any = None) -> None:
        target = _local_path(self, path, storage_options)
        try:
            import torch_xla.core.xla_model as xm
        except ImportError:
            raise MissingBackendError(
                "`XLACheckpointIO`", package="torch_xla", install="pip install 'lightning-migrate[xla]'"
            ) from None
        target.parent.mkdir(parents=True, exist_ok=True)
        xm.save(checkpoint, str(target))
