"""How checkpoints are written and read."""

from __future__ import annotations

from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any


class CheckpointIO(ABC):
    """Writes and reads checkpoint dictionaries; strategies delegate all file access to it."""

    @abstractmethod
    def save_checkpoint(self, checkpoint: dict[str, Any], path: str | Path, storage_options: Any = None) -> None:
        """Write ``checkpoint`` to ``path``."""

    @abstractmethod
    def load_checkpoint(self, path: str | Path, map_location: Any = None) -> dict[str, Any]:
        """Read the checkpoint at ``path``."""

    @abstractmethod
    def remove_checkpoint(self, path: str | Path) -> None:
        """Delete the checkpoint at ``path``."""

    def teardown(self) -> None:
        """Release what the plugin created (open handles, background writers)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"
