"""How a strategy starts the processes it trains in."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any


class Launcher(ABC):
    """Starts the worker processes (or none, if a scheduler already did) and runs ``fn`` in them."""

    @property
    @abstractmethod
    def is_interactive_compatible(self) -> bool:
        """Whether this launcher works in a REPL or notebook, where ``__main__`` cannot be re-imported."""

    @abstractmethod
    def launch(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run ``fn(*args, **kwargs)`` in every process and return rank zero's result."""
