"""Launching ``tpu_spawn``: one forked process per TPU core, through ``torch_xla``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from newcore.launchers.spawn import _SpawnLauncher

if TYPE_CHECKING:
    from newcore.strategies.parallel import ParallelStrategy


class _XLASpawnLauncher(_SpawnLauncher):
    """Starts the TPU workers with ``torch_xla``'s multiprocessing, which always forks.

    ``torch_xla`` is imported only when processes are launched, never when the launcher is built.
    """

    def __init__(self, strategy: ParallelStrategy) -> None:
        super().__init__(strategy, start_method="fork")

    @property
    def is_interactive_compatible(self) -> bool:
        # Forking is how XLA starts workers in Colab/Kaggle TPU notebooks; no CUDA is involved.
        return True
