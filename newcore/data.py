"""Data loaders set up for a strategy, as Lightning Fabric 2.x's ``setup_dataloaders`` does.

Under a strategy that shards data, a map-style loader is rebuilt around a sampler that gives each
process its share: a ``DistributedSampler`` in place of a random or sequential sampler, or a
:class:`ShardedSampler` over any other sized sampler. A batch sampler keeps its class and gets the
sharded sampler inside it. An ``IterableDataset`` cannot be sharded from outside; it is passed
through with a warning. The rebuilt loader keeps every ``DataLoader`` argument (workers, prefetch
factor, generator, multiprocessing context, pinning, ...). The result is a :class:`RunnerDataLoader`,
which moves each batch to the device and starts a new shuffling epoch on each iteration.
"""

from __future__ import annotations

import inspect
import math
import os
import warnings
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import torch
from torch.utils.data import (
    DataLoader,
    DistributedSampler,
    IterableDataset,
    RandomSampler,
    Sampler,
    SequentialSampler,
)

from newcore.exceptions import MisconfigurationException
from newcore.warnings import NewcoreWarning

#: The ``DataLoader`` arguments that decide which indices each batch holds; set anew when a loader is sharded.
SAMPLING_ARGUMENTS = frozenset({"shuffle", "sampler", "batch_sampler", "batch_size", "drop_last"})

#: Every other ``DataLoader.__init__`` argument: copied from the loader's attribute of the same name on rebuild.
KEPT_ARGUMENTS = tuple(
    name for name in inspect.signature(DataLoader.__init__).parameters if name not in SAMPLING_ARGUMENTS | {"self"}
)

_OPT_OUT = "pass `use_distributed_sampler=False` to `Runner.setup_dataloaders`"
_BY_HAND = "shard the data yourself with `num_replicas=runner.world_size, rank=runner.global_rank`"


class ShardedSampler(Sampler[Any]):
    """Process ``rank``'s share of the indices another (sized) sampler yields, padded to equal shares.

    Like ``DistributedSampler`` over the sampler's output: shares are interleaved, and the list is
    padded by repeating its start so that every process runs the same number of steps. The order is
    the inner sampler's, so every process must draw the same one (a seeded or deterministic sampler).
    """

    def __init__(self, sampler: Sampler[Any], num_replicas: int, rank: int) -> None:
        if not hasattr(sampler, "__len__"):
            raise MisconfigurationException(
                f"`Runner.setup_dataloaders` cannot shard the sampler {sampler!r}: it has no `__len__`, so the"
                f" processes cannot be given equal shares. Give it a `__len__`, or {_OPT_OUT} and {_BY_HAND}."
            )
        self.sampler, self.num_replicas, self.rank = sampler, num_replicas, rank

    def __len__(self) -> int:
        return math.ceil(len(self.sampler) / self.num_replicas)

    def __iter__(self) -> Iterator[Any]:
        indices = list(self.sampler)
        total = len(self) * self.num_replicas
        while indices and len(indices) < total:
            indices += indices[: total - len(indices)]
        return iter(indices[self.rank : total : self.num_replicas])

    def set_epoch(self, epoch: int) -> None:
        """Pass the epoch on to the inner sampler, if it shuffles by epoch."""
        set_epoch = getattr(self.sampler, "set_epoch", None)
        if callable(set_epoch):
            set_epoch(epoch)


class RunnerDataLoader:
    """What ``Runner.setup_dataloaders`` returns: iterates the loader, batches moved to ``device``.

    Each iteration first calls ``set_epoch(n)`` (``n`` counting the iterations) on the loader's sampler and
    its batch sampler's sampler where they have one, so a shuffling ``DistributedSampler`` draws a new
    order every epoch, as Fabric does. Other attributes (``dataset``, ``sampler``, ``batch_size``, ...)
    are the loader's.
    """

    def __init__(self, loader: DataLoader[Any], device: torch.device | None) -> None:
        self._loader, self._device, self._epoch = loader, device, 0

    @property
    def loader(self) -> DataLoader[Any]:
        """The (rebuilt) ``DataLoader``."""
        return self._loader

    @property
    def device(self) -> torch.device | None:
        """Where batches are moved, or ``None`` when they are yielded as the loader makes them."""
        return self._device

    def __len__(self) -> int:
        return len(self._loader)

    def __iter__(self) -> Iterator[Any]:
        for sampler in _samplers(self._loader):
            sampler.set_epoch(self._epoch)
        self._epoch += 1
        if self._device is None:
            yield from self._loader
            return
        for batch in self._loader:
            yield move_to_device(batch, self._device)

    def __getattr__(self, name: str) -> Any:
        loader = self.__dict__.get("_loader")  # absent while unpickling: no recursion
        if loader is None:
            raise AttributeError(name)
        return getattr(loader, name)


def setup_dataloaders(
    loaders: Sequence[DataLoader[Any]], sampler_kwargs: dict[str, int] | None, device: torch.device | None
) -> list[RunnerDataLoader]:
    """Each loader sharded by ``sampler_kwargs`` (``num_replicas``, ``rank``; ``None``: not), moved to ``device``."""
    if not loaders:
        raise MisconfigurationException(
            "`Runner.setup_dataloaders()` was called without a loader. Pass one or more `DataLoader`s."
        )
    for loader in loaders:
        if isinstance(loader, RunnerDataLoader):
            raise MisconfigurationException(
                "`Runner.setup_dataloaders` was given a loader it already set up. Pass each `DataLoader` once."
            )
        if not isinstance(loader, DataLoader):
            raise MisconfigurationException(
                f"`Runner.setup_dataloaders` takes `torch.utils.data.DataLoader`s, got {type(loader).__name__}."
                " Wrap your data in a `DataLoader`, or iterate it yourself without `setup_dataloaders`."
            )
    return [
        RunnerDataLoader(loader if sampler_kwargs is None else distribute(loader, **sampler_kwargs), device)
        for loader in loaders
    ]


def distribute(loader: DataLoader[Any], num_replicas: int, rank: int) -> DataLoader[Any]:
    """``loader`` rebuilt so that process ``rank`` of ``num_replicas`` sees its share; or unchanged.

    Unchanged when it already has a ``DistributedSampler`` (or its batch sampler has one inside), and
    for an ``IterableDataset``, which only the dataset itself can shard (a warning says so).
    """
    if isinstance(loader.dataset, IterableDataset):
        warnings.warn(
            f"`Runner.setup_dataloaders` cannot shard the IterableDataset {type(loader.dataset).__name__}: every"
            f" process iterates all of it. Make its `__iter__` yield only this process's share (rank"
            f" {rank} of {num_replicas}; `torch.utils.data.get_worker_info()` for workers) and {_OPT_OUT}.",
            NewcoreWarning,
            stacklevel=4,
        )
        return loader
    if loader.batch_sampler is not None and loader.batch_size is None:  # the user passed `batch_sampler=`
        batch_sampler = loader.batch_sampler
        inner = getattr(batch_sampler, "sampler", None)
        if isinstance(inner, (DistributedSampler, ShardedSampler)):
            return loader
        sharded = _rebuild_batch_sampler(batch_sampler, loader.dataset, num_replicas, rank)
        return rebuild(loader, batch_sampler=sharded)
    if isinstance(loader.sampler, (DistributedSampler, ShardedSampler)):
        return loader
    sampler = _shard(loader.sampler, loader.dataset, num_replicas, rank)
    return rebuild(loader, sampler=sampler, batch_size=loader.batch_size, drop_last=loader.drop_last)


def rebuild(loader: DataLoader[Any], **sampling: Any) -> DataLoader[Any]:
    """A loader of ``loader``'s class with the same arguments but the ``sampling`` ones.

    The arguments are read back from the loader's attributes. A subclass whose ``__init__`` takes
    other arguments gets them from its attributes of the same names.
    """
    kwargs = {name: getattr(loader, name) for name in KEPT_ARGUMENTS if hasattr(loader, name)}
    kwargs.update(sampling)
    kind = type(loader)
    if kind.__init__ is DataLoader.__init__:
        return kind(**kwargs)
    parameters = inspect.signature(kind.__init__).parameters
    if not any(p.kind is p.VAR_KEYWORD for p in parameters.values()):
        refused = sorted(name for name in sampling if name not in parameters)
        if refused:
            raise MisconfigurationException(
                f"`Runner.setup_dataloaders` must rebuild your {kind.__name__} with a sharding `{refused[0]}=`, which"
                f" its `__init__` does not take. Accept it (or `**kwargs`) and pass it on to `DataLoader`,"
                f" or {_OPT_OUT} and {_BY_HAND}."
            )
        kwargs = {name: value for name, value in kwargs.items() if name in parameters}
    missing = []
    for name, parameter in list(parameters.items())[1:]:
        if name in kwargs or parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        if hasattr(loader, name):
            kwargs[name] = getattr(loader, name)
        elif parameter.default is parameter.empty:
            missing.append(name)
    if missing:
        raise MisconfigurationException(
            f"`Runner.setup_dataloaders` must rebuild your {kind.__name__} around a distributed sampler, but its"
            f" `__init__` needs {', '.join(f'`{name}`' for name in missing)}, which the loader does not keep as"
            f" attributes of the same names. Store them on `self`, or {_OPT_OUT} and {_BY_HAND}."
        )
    return kind(**kwargs)


def move_to_device(obj: Any, device: torch.device) -> Any:
    """``obj`` with every tensor (in nested dicts, lists, tuples and named tuples) on ``device``.

    Other objects with a ``to`` method (a batch class of the user's) are moved by it; the rest is kept.
    """
    if isinstance(obj, torch.Tensor):
        return obj.to(device, non_blocking=device.type == "cuda")
    if isinstance(obj, Mapping):
        items = {key: move_to_device(value, device) for key, value in obj.items()}
        try:
            return type(obj)(items)  # type: ignore[call-arg]
        except TypeError:  # a mapping whose constructor takes other arguments (defaultdict, ...)
            return items
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):  # a named tuple
        return type(obj)(*(move_to_device(value, device) for value in obj))
    if isinstance(obj, (list, tuple)):
        return type(obj)(move_to_device(value, device) for value in obj)
    to = getattr(obj, "to", None)
    if callable(to) and not isinstance(obj, (str, bytes)):
        return to(device)
    return obj


def _shard(sampler: Any, dataset: Any, num_replicas: int, rank: int) -> Sampler[Any]:
    """A sampler giving process ``rank`` its share of what ``sampler`` would draw."""
    # Only a sampler drawing each index of this very dataset once can be replaced by a DistributedSampler.
    whole = hasattr(sampler, "__len__") and hasattr(dataset, "__len__") and len(sampler) == len(dataset)
    plain_random = type(sampler) is RandomSampler and not sampler.replacement and whole
    if (type(sampler) is SequentialSampler and whole) or plain_random:
        # Every process must draw the same permutation: Fabric's seed, so its users get the same shards.
        seed = int(os.environ.get("PL_GLOBAL_SEED", 0))
        return DistributedSampler(dataset, num_replicas=num_replicas, rank=rank, shuffle=plain_random, seed=seed)
    return ShardedSampler(sampler, num_replicas, rank)


def _rebuild_batch_sampler(batch_sampler: Any, dataset: Any, num_replicas: int, rank: int) -> Any:
    """``batch_sampler``'s class, batch size and ``drop_last`` around a sharded copy of its sampler."""
    kind = type(batch_sampler)
    inner = getattr(batch_sampler, "sampler", None)
    sized = hasattr(batch_sampler, "batch_size") and hasattr(batch_sampler, "drop_last")
    if not isinstance(inner, Sampler) or not sized:
        raise MisconfigurationException(
            f"`Runner.setup_dataloaders` cannot shard the batch sampler {kind.__name__}: only one with a `sampler`,"
            f" `batch_size` and `drop_last` (like `torch.utils.data.BatchSampler`) can be rebuilt around a sharded"
            f" sampler. Subclass `BatchSampler`, or {_OPT_OUT} and {_BY_HAND}."
        )
    try:
        return kind(
            _shard(inner, dataset, num_replicas, rank),
            batch_size=batch_sampler.batch_size,
            drop_last=batch_sampler.drop_last,
        )
    except TypeError as error:
        raise MisconfigurationException(
            f"`Runner.setup_dataloaders` could not rebuild the batch sampler {kind.__name__} as"
            f" `{kind.__name__}(sampler, batch_size=..., drop_last=...)` ({error}). Give it that signature"
            f" (as `BatchSampler` has), or {_OPT_OUT} and {_BY_HAND}."
        ) from error


def _samplers(loader: DataLoader[Any]) -> list[Any]:
    """The loader's samplers that shuffle by epoch: its sampler and its batch sampler's (each once)."""
    found: dict[int, Any] = {}
    for sampler in (loader.sampler, getattr(loader.batch_sampler, "sampler", None)):
        if sampler is not None and callable(getattr(sampler, "set_epoch", None)):
            found[id(sampler)] = sampler
    return list(found.values())


__all__ = [
    "KEPT_ARGUMENTS",
    "RunnerDataLoader",
    "ShardedSampler",
    "distribute",
    "move_to_device",
    "rebuild",
    "setup_dataloaders",
]
