"""What a checkpoint holds for each value of the user's state, and how it goes back into the live objects.

:meth:`Runner.save <newcore.runner.Runner.save>` and :meth:`Runner.load <newcore.runner.Runner.load>` route
every top-level value of the state dict through here, one rule per kind of value:

- a module: its full state dict, from the strategy (FSDP gathers the shards), loaded back through the
  strategy (FSDP scatters it into the flat parameters);
- an optimizer: its full state dict, from the strategy (``ZeroRedundancyOptimizer`` consolidates it on
  rank zero), loaded back through the strategy;
- any other object with ``state_dict`` and ``load_state_dict`` (LR schedulers, samplers, the user's own):
  its state dict, loaded back with ``load_state_dict``;
- anything else is saved as it is if it pickles, and restored by replacing the value in the caller's dict.

The rules are the same on every strategy, so a checkpoint saved under one strategy resumes under another.
Every check runs on every rank before any collective, so a bad state fails every rank alike (no rank is
left waiting in a gather that the others never join).
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import torch
from torch.nn import Module
from torch.optim import Optimizer

from newcore.exceptions import MisconfigurationException

if TYPE_CHECKING:
    from newcore.strategies.strategy import Strategy


@runtime_checkable
class Stateful(Protocol):
    """An object whose state a checkpoint holds as its state dict (LR schedulers, samplers, your own)."""

    def state_dict(self) -> dict[str, Any]: ...

    def load_state_dict(self, state_dict: dict[str, Any]) -> Any: ...


def _same(value: Any) -> Any:
    return value


def state_of(strategy: Strategy, state: object, stepped: Callable[[Any], Any] = _same) -> dict[str, Any]:
    """The checkpoint for ``state``: each module, optimizer and stateful object replaced by its state dict.

    ``stepped`` maps an optimizer wrapper to the optimizer the strategy steps. A collective for sharding
    strategies: call it on every rank.
    """
    items = _require_dict("save", state)
    for key, value in items.items():
        if not isinstance(value, Stateful):
            _require_picklable(key, value)
    return {key: _state_of_value(strategy, stepped(value)) for key, value in items.items()}


def _state_of_value(strategy: Strategy, value: Any) -> Any:
    if isinstance(value, Module):
        return strategy.module_state(value)
    if isinstance(value, Optimizer):
        return strategy.optimizer_state(value)
    if isinstance(value, Stateful):
        return value.state_dict()
    return value


def restore(
    strategy: Strategy, checkpoint: object, state: object, *, strict: bool = True, path: object = None
) -> dict[str, Any]:
    """Restore ``checkpoint`` into the objects of ``state`` in place; return the entries ``state`` did not name.

    Modules, optimizers and stateful objects load their state dicts; any other value of ``state`` is
    replaced by the checkpoint's. With ``strict``, a key of ``state`` that the checkpoint lacks, and a
    module state dict with missing or unexpected keys, are errors. A collective for sharding strategies.
    """
    where = f"The checkpoint at {str(path)!r}" if path is not None else "The checkpoint"
    if state is None:
        return _require_checkpoint_dict(where, checkpoint, None)
    targets = _require_dict("load", state)
    saved = _require_checkpoint_dict(where, checkpoint, targets)
    missing = [key for key in targets if key not in saved]
    if strict and missing:
        raise MisconfigurationException(
            f"{where} has no {missing[0]!r} entry, which `Runner.load(path, state)` was asked to restore; it holds"
            f" {sorted(map(str, saved))}. Rename the key in `state`, or pass `strict=False` to restore only the"
            " entries the checkpoint has."
        )
    for key in targets:
        if key in saved and isinstance(targets[key], Stateful):
            _require_state_dict(where, key, targets[key], saved[key])
    for key, target in targets.items():
        if key not in saved:
            continue
        value = saved.pop(key)
        if isinstance(target, Stateful):
            _load(strategy, where, key, target, value, strict)
        else:
            targets[key] = value
    return saved


def _load(strategy: Strategy, where: str, key: object, target: Stateful, value: Any, strict: bool) -> None:
    try:
        if isinstance(target, Module):
            strategy.load_module_state(target, value, strict=strict)
        elif isinstance(target, Optimizer):
            strategy.load_optimizer_state(target, value)
        else:
            target.load_state_dict(value)
    except (KeyError, ValueError, RuntimeError) as error:
        if isinstance(error, MisconfigurationException):
            raise
        detail = " ".join(str(error).split()).rstrip(".")  # torch's messages span lines and end in a period
        raise MisconfigurationException(
            f"{where} does not fit `state[{key!r}]` ({type(target).__name__}): {detail}. Restore it into the same"
            " kind of object with the same parameters it was saved from, or pass `strict=False` to skip missing and"
            " unexpected module keys."
        ) from error


def _require_dict(method: str, state: object) -> dict[Any, Any]:
    if not isinstance(state, dict):
        raise MisconfigurationException(
            f"`Runner.{method}(path, state)` takes a dict of what to {method}, got {type(state).__name__}"
            f" ({state!r:.80}). Pass a dict such as `{{'model': model, 'optimizer': optimizer, 'step': step}}`."
        )
    return state


def _require_checkpoint_dict(where: str, checkpoint: object, targets: dict[Any, Any] | None) -> dict[Any, Any]:
    if not isinstance(checkpoint, dict):
        if targets is None:
            raise MisconfigurationException(
                f"{where} holds a {type(checkpoint).__name__}, not the dict `Runner.save` writes."
                " Read it with `torch.load`, or save it again with `Runner.save(path, {...})`."
            )
        raise MisconfigurationException(
            f"{where} holds a {type(checkpoint).__name__}, not the dict `Runner.save` writes, so it cannot restore"
            f" {sorted(map(str, targets))}. Load a checkpoint written by `Runner.save(path, {{...}})`."
        )
    return checkpoint


def _require_state_dict(where: str, key: object, target: object, value: object) -> None:
    if not isinstance(value, Mapping):
        raise MisconfigurationException(
            f"{where} holds a {type(value).__name__} under {key!r}, but `state[{key!r}]` is a"
            f" {type(target).__name__}, which loads a state dict. Restore that entry into a plain value"
            " (`state[key] = None`), or load a checkpoint that saved the object itself."
        )


class _Probe(pickle.Pickler):
    """Pickles into nothing, skipping tensors (``torch.save`` writes those itself), to find what cannot be saved."""

    def persistent_id(self, obj: Any) -> Any:
        if isinstance(obj, (torch.Tensor, torch.UntypedStorage, torch.TypedStorage)):
            return "tensor"
        return None


class _Discard:
    def write(self, data: bytes) -> int:
        return len(data)


def _require_picklable(key: object, value: Any) -> None:
    try:
        _Probe(_Discard(), protocol=pickle.HIGHEST_PROTOCOL).dump(value)
    except (pickle.PicklingError, TypeError, AttributeError) as error:
        raise MisconfigurationException(
            f"`Runner.save` cannot save `state[{key!r}]` ({type(value).__name__}): it has no"
            f" `state_dict`/`load_state_dict` and does not pickle ({error}). Put modules, optimizers and objects"
            " with `state_dict`/`load_state_dict` at the top level of the state dict, or save a plain value"
            " (numbers, strings, tensors, lists and dicts of them)."
        ) from error
