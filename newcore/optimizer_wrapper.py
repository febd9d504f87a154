"""The optimizer :meth:`Runner.setup <newcore.runner.Runner.setup>` returns: the user's, stepped through the strategy.

Its own module because both halves of the Runner read it: ``runner`` wraps optimizers, and ``fabric_api``'s
``clip_gradients`` unscales and clips the optimizer the strategy steps.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from torch.optim import Optimizer

if TYPE_CHECKING:
    from newcore.strategies.strategy import Strategy


class StrategyOptimizer:
    """The user's optimizer, whose ``step`` goes through the strategy (and so the precision plugin).

    The wrapper subclasses the optimizer's class and starts from a shallow copy of its ``__dict__``
    (the same ``state`` and ``param_groups`` objects), so LR schedulers and ``isinstance`` checks keep
    working. It keeps no reference cycle to the optimizer: a process group held by a sharded
    optimizer must be freed before the group is destroyed.
    """

    _optimizer: Optimizer
    _strategy: Strategy

    @classmethod
    def wrap(cls, optimizer: Optimizer, strategy: Strategy) -> Any:
        kind = type(f"Runner{type(optimizer).__name__}", (cls, type(optimizer)), {})
        wrapper: Any = object.__new__(kind)
        wrapper.__dict__.update(optimizer.__dict__)
        wrapper._optimizer, wrapper._strategy = optimizer, strategy
        return wrapper

    @property
    def optimizer(self) -> Optimizer:
        """The optimizer the strategy steps."""
        return self._optimizer

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Step the optimizer through the strategy."""
        kwargs = {} if closure is None else {"closure": closure}
        return self._strategy.optimizer_step(self._optimizer, **kwargs)

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Load into the optimizer the strategy steps, then share its new ``state``/``param_groups`` again.

        torch replaces those objects on load; loading into the wrapper alone would leave the stepped
        optimizer on its old learning rate and state.
        """
        self._optimizer.load_state_dict(state_dict)
        self.__dict__.update(self._optimizer.__dict__)


def stepped(value: Any) -> Any:
    """The optimizer the strategy steps, for an optimizer :meth:`Runner.setup` returned; other values unchanged."""
    return value.optimizer if isinstance(value, StrategyOptimizer) else value
