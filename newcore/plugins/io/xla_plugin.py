"""Checkpoints of XLA (TPU) tensors."""

from __future__ import annotations

import os
import uuid
from pathlib import Path
from typing import Any

from newcore.exceptions import MissingBackendError
from newcore.plugins.io.torch_plugin import TorchCheckpointIO, _local_path


class XLACheckpointIO(TorchCheckpointIO):
    """Saves through ``torch_xla``'s ``xm.save``, which runs the pending graph and moves tensors to the CPU.

    The default CheckpointIO of the TPU strategies. Which process writes is the strategy's decision
    (global rank zero), so every call writes; like :class:`TorchCheckpointIO` it writes a temporary
    file and renames it over the target. Loading needs no XLA: the file holds CPU tensors.
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
        temporary = target.with_name(f".{target.name}.{uuid.uuid4().hex}.tmp")
        try:
            # master_only=False: with the default, a caller that is not its host's first core would write nothing.
            xm.save(checkpoint, str(temporary), master_only=False)
            os.replace(temporary, target)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
