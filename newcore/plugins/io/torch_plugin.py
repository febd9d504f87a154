"""Checkpoints as ``torch.save`` files on the local file system."""

from __future__ import annotations

import os
import shutil
import uuid
from pathlib import Path
from typing import Any

import torch

from newcore.exceptions import MisconfigurationException
from newcore.plugins.io.checkpoint_plugin import CheckpointIO


class TorchCheckpointIO(CheckpointIO):
    """Writes with ``torch.save`` and reads with ``torch.load``.

    A save goes to a temporary file next to the target and is renamed over it, so a crash mid-write
    never leaves a truncated checkpoint where the last good one was.
    """

    def save_checkpoint(self, checkpoint: dict[str, Any], path: str | Path, storage_options: Any = None) -> None:
        target = _local_path(self, path, storage_options)
        target.parent.mkdir(parents=True, exist_ok=True)
        # A unique name (not tempfile.mkstemp) so the file gets the usual umask permissions, not 0600.
        temporary = target.with_name(f".{target.name}.{uuid.uuid4().hex}.tmp")
        try:
            with open(temporary, "xb") as file:
                torch.save(checkpoint, file)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, target)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise

    def load_checkpoint(self, path: str | Path, map_location: Any = None) -> dict[str, Any]:
        source = _local_path(self, path, None)
        if not source.exists():
            raise FileNotFoundError(f"Checkpoint at {str(path)!r} not found. Check `ckpt_path`.")
        # weights_only=False: Lightning checkpoints hold hyper-parameters and loop state, not only tensors.
        loaded: dict[str, Any] = torch.load(source, map_location=map_location, weights_only=False)
        return loaded

    def remove_checkpoint(self, path: str | Path) -> None:
        target = _local_path(self, path, None)
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)
        else:
            target.unlink(missing_ok=True)


def _local_path(io: CheckpointIO, path: str | Path, storage_options: Any) -> Path:
    name = type(io).__name__
    if storage_options is not None:
        raise MisconfigurationException(
            f"`{name}` takes no `storage_options`, got {storage_options!r}."
            " Pass `storage_options=None`, or a CheckpointIO plugin that understands them."
        )
    if "://" in str(path):
        raise MisconfigurationException(
            f"`{name}` writes local files only, got {str(path)!r}."
            " Use a local path, or pass a CheckpointIO plugin for remote storage in `plugins`."
        )
    return Path(path)
