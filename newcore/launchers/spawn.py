"""Launching ``ddp_spawn``/``ddp_fork``: worker processes created with :mod:`multiprocessing`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from newcore.launchers.launcher import Launcher

if TYPE_CHECKING:
    from newcore.strategies.parallel import ParallelStrategy


class _SpawnLauncher(Launcher):
    """Runs the training function in one new process per device, started with ``start_method``.

    ``"spawn"`` pickles the function and re-imports ``__main__`` in each child, which a notebook
    cannot offer. ``"fork"`` copies the parent instead and works interactively, but not once CUDA
    is initialised in the parent, hence the device check in :attr:`is_interactive_compatible`.
    """

    def __init__(self, strategy: ParallelStrategy, start_method: str = "spawn") -> None:
        self._strategy = strategy
        self._start_method = start_method

    @property
    def start_method(self) -> str:
        """The :mod:`multiprocessing` start method the workers are created with."""
        return self._start_method

    @property
    def is_interactive_compatible(self) -> bool:
        # A forked child cannot re-initialise CUDA, so fork is only safe for CPU workers.
        return self._start_method == "fork" and self._strategy.root_device.type != "cuda"

    def launch(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(
            f"{type(self).__name__} cannot start processes yet: launching lands in the next newcore stage."
        )

    def __repr__(self) -> str:
        return f"{type(self).__name__}(start_method={self._start_method!r})"
