"""Sharded checkpoints (``fsdp`` with ``state_dict_type="sharded"``): a directory each rank writes its shards into.

As in Lightning Fabric, the directory holds the modules' and optimizers' sharded state dicts, written by
``torch.distributed.checkpoint`` (every rank its own shards, plus the ``.metadata`` that maps them), and
``meta.pt``: everything else of the user's state (stateful objects as their state dicts, plain values), written
by rank zero. No process ever holds the whole model. Loading reads each rank's shards into the live
modules and optimizers (the world size may differ from the saving run's: the metadata says where every
slice lies), and restores the rest as :mod:`newcore.checkpoint` does a full checkpoint.

A sharded checkpoint goes around the strategy's ``CheckpointIO``, which writes single files.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch
from torch.nn import Module
from torch.optim import Optimizer

from newcore import checkpoint
from newcore.exceptions import MisconfigurationException
from newcore.strategies.fully_sharded import DDPFullyShardedStrategy
from newcore.strategies.strategy import Strategy

#: The file of a sharded checkpoint directory with the state that is not sharded (Fabric's name).
METADATA_FILE = "meta.pt"


def saves_sharded(strategy: Strategy) -> bool:
    """Whether ``Runner.save`` writes a sharded checkpoint directory under ``strategy``."""
    return isinstance(strategy, DDPFullyShardedStrategy) and strategy.state_dict_type == "sharded"


def is_sharded_checkpoint(path: str | Path) -> bool:
    """Whether ``path`` is a directory written by :func:`save`."""
    return Path(path, METADATA_FILE).is_file()


def save(strategy: Strategy, path: str | Path, state: object, stepped: Callable[[Any], Any]) -> None:
    """Write ``state`` into the directory ``path`` (replacing a file there); a collective: call it on every rank."""
    assert isinstance(strategy, DDPFullyShardedStrategy)
    from torch.distributed.checkpoint.state_dict_saver import save as dcp_save

    items = checkpoint._require_dict("save", state)
    for key, value in items.items():
        if not isinstance(value, checkpoint.Stateful):
            checkpoint._require_picklable(key, value)
    shards: dict[str, Any] = {}
    metadata: dict[Any, Any] = {}
    for key, value in items.items():
        value = stepped(value)
        if isinstance(value, (Module, Optimizer)):
            shards[_shard_key(key)] = _sharded_state(strategy, value)
        else:
            metadata[key] = value.state_dict() if isinstance(value, checkpoint.Stateful) else value
    # Every rank must write into rank zero's directory, also where ranks were given different paths.
    directory = Path(strategy.broadcast(str(path)))
    if strategy.is_global_zero:
        if directory.is_file():
            directory.unlink()
        directory.mkdir(parents=True, exist_ok=True)
    strategy.barrier("sharded checkpoint directory")
    dcp_save(shards, checkpoint_id=directory)
    if strategy.is_global_zero:
        torch.save(metadata, directory / METADATA_FILE)
    strategy.barrier("sharded checkpoint written")


def load(strategy: Strategy, path: str | Path, state: object, *, strict: bool = True) -> dict[str, Any]:
    """Restore the sharded checkpoint at ``path`` into ``state``; return the saved values ``state`` did not name.

    Only the values of ``meta.pt`` come back for the keys ``state`` does not name: sharded state needs the
    live module or optimizer to be read into. A collective: call it on every rank.
    """
    from torch.distributed.checkpoint.filesystem import FileSystemReader
    from torch.distributed.checkpoint.state_dict_loader import load as dcp_load

    where = f"The sharded checkpoint at {str(path)!r}"
    if not isinstance(strategy, DDPFullyShardedStrategy):
        raise MisconfigurationException(
            f"{where} holds per-rank shards written by `fsdp`, which `strategy={strategy._flag!r}` cannot read."
            " Load it under `fsdp`, or turn it into one file first with"
            " `torch.distributed.checkpoint.format_utils.dcp_to_torch_save(path, 'full.ckpt')`."
        )
    if state is None:
        raise MisconfigurationException(
            f"`Runner.load(path)` without a state cannot read {where[4:]}: its shards load only into the live"
            " objects. Pass them, `Runner.load(path, {'model': model, 'optimizer': optimizer, ...})`."
        )
    targets = checkpoint._require_dict("load", state)
    directory = Path(path)
    metadata = torch.load(directory / METADATA_FILE, map_location="cpu", weights_only=False)
    sharded = {key: target for key, target in targets.items() if isinstance(target, (Module, Optimizer))}
    saved_keys = set(FileSystemReader(directory).read_metadata().state_dict_metadata)
    present = {key for key in sharded if any(name.startswith(f"{_shard_key(key)}.") for name in saved_keys)}
    if strict and present != set(sharded):
        missing = sorted(map(str, set(sharded) - present))[0]
        raise MisconfigurationException(
            f"{where} has no shards for {missing!r}, which `Runner.load(path, state)` was asked to restore."
            " Rename the key in `state`, or pass `strict=False` to restore only the entries the checkpoint has."
        )
    # One order on every rank: these are collectives, and a set's order follows each process's hash seed.
    order = sorted(present, key=str)
    templates = {_shard_key(key): _sharded_state(strategy, sharded[key]) for key in order}
    dcp_load(templates, checkpoint_id=directory)
    for key in order:
        target, shards = sharded[key], templates[_shard_key(key)]
        if isinstance(target, Module):
            strategy.load_module_state(target, shards, strict=strict, full=False)
        else:
            # Into the object `state` holds: a Runner wrapper re-shares the state torch replaces on load.
            strategy.load_optimizer_state(target, shards, full=False)
    others = {key: target for key, target in targets.items() if key not in sharded}
    rest = checkpoint.restore(strategy, metadata, others, strict=strict, path=path)
    targets.update(others)  # plain values were replaced in `others`
    return rest


def _sharded_state(strategy: DDPFullyShardedStrategy, value: Module | Optimizer) -> dict[str, Any]:
    if isinstance(value, Module):
        return strategy.module_state(value, full=False)
    return strategy.optimizer_state(_stepped_optimizer(value), full=False)


def _stepped_optimizer(optimizer: Optimizer) -> Optimizer:
    """The optimizer the strategy steps (``Runner.setup`` returns a wrapper sharing its state)."""
    inner = getattr(optimizer, "optimizer", None)
    return inner if isinstance(inner, Optimizer) else optimizer


def _shard_key(key: object) -> str:
    # torch.distributed.checkpoint keys are strings, its names joined with "."
    return str(key)
