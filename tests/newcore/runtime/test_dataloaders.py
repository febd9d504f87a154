"""``Runner.setup_dataloaders`` as Fabric's: every loader kind sharded or told why not, arguments kept, batches moved."""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
import torch
from torch.utils.data import (
    BatchSampler,
    DataLoader,
    DistributedSampler,
    IterableDataset,
    Sampler,
    SequentialSampler,
    TensorDataset,
)

from newcore import MisconfigurationException, Runner
from newcore.data import KEPT_ARGUMENTS, SAMPLING_ARGUMENTS, RunnerDataLoader, ShardedSampler, distribute
from newcore.warnings import NewcoreWarning

DATA = TensorDataset(torch.arange(10))


class Stream(IterableDataset[torch.Tensor]):
    def __iter__(self) -> Iterator[torch.Tensor]:
        return iter(torch.arange(4))


class Reversed(Sampler[int]):
    def __len__(self) -> int:
        return 10

    def __iter__(self) -> Iterator[int]:
        return iter(range(9, -1, -1))


class Pairs(BatchSampler):
    """A BatchSampler subclass: rebuilt as ``Pairs(sharded, batch_size=..., drop_last=...)``."""


class Opaque:
    """A batch sampler that is only an iterable of index lists: nothing to put a sharded sampler into."""

    def __len__(self) -> int:
        return 2

    def __iter__(self) -> Iterator[list[int]]:
        return iter([[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]])


def _items(batch: Any) -> list[int]:
    values = batch[0]
    return [int(values)] if values.dim() == 0 else values.tolist()


def shards(loader: DataLoader[Any]) -> list[list[list[int]]]:
    """The batches (as index lists) that ranks 0 and 1 of two iterate."""
    return [[_items(b) for b in distribute(loader, num_replicas=2, rank=rank)] for rank in (0, 1)]


@pytest.mark.parametrize(
    ("loader", "expected"),
    [
        pytest.param(DataLoader(DATA, batch_size=3), [[[0, 2, 4], [6, 8]], [[1, 3, 5], [7, 9]]], id="sequential"),
        pytest.param(
            DataLoader(DATA, batch_size=None),
            [[[i] for i in range(0, 10, 2)], [[i] for i in range(1, 10, 2)]],
            id="batch_size=None: single items, sharded",
        ),
        pytest.param(
            DataLoader(DATA, batch_sampler=BatchSampler(SequentialSampler(DATA), 3, False)),
            [[[0, 2, 4], [6, 8]], [[1, 3, 5], [7, 9]]],
            id="batch_sampler=: a DistributedSampler inside it",
        ),
        pytest.param(
            DataLoader(DATA, batch_sampler=Pairs(Reversed(), 2, True)),
            [[[9, 7], [5, 3]], [[8, 6], [4, 2]]],
            id="batch_sampler subclass around a custom sampler: both kept, the sampler's order sharded",
        ),
        pytest.param(
            DataLoader(DATA, batch_size=4, sampler=Reversed()),
            [[[9, 7, 5, 3], [1]], [[8, 6, 4, 2], [0]]],
            id="custom sampler: its order, sharded",
        ),
    ],
)
def test_each_rank_gets_its_share(loader: DataLoader[Any], expected: list[list[list[int]]]) -> None:
    assert shards(loader) == expected


def test_shuffled_shards_are_disjoint_and_cover_the_data() -> None:
    first, second = shards(DataLoader(DATA, batch_size=2, shuffle=True))
    assert sorted(i for batch in first + second for i in batch) == list(range(10))


def test_the_batch_sampler_keeps_its_class_and_settings() -> None:
    loader = distribute(DataLoader(DATA, batch_sampler=Pairs(Reversed(), 3, True)), num_replicas=2, rank=0)
    assert type(loader.batch_sampler) is Pairs
    assert (loader.batch_sampler.batch_size, loader.batch_sampler.drop_last) == (3, True)
    assert isinstance(loader.batch_sampler.sampler, ShardedSampler)


def _init_worker(worker_id: int) -> None:
    del worker_id


def test_every_other_dataloader_argument_is_kept() -> None:
    collate = torch.utils.data.default_collate
    loader = DataLoader(
        DATA,
        batch_size=2,
        num_workers=1,
        collate_fn=collate,
        pin_memory=False,
        timeout=5.0,
        worker_init_fn=_init_worker,
        multiprocessing_context="spawn",
        generator=torch.Generator().manual_seed(3),
        prefetch_factor=3,
        persistent_workers=True,
        pin_memory_device="cpu",
        in_order=False,
    )
    rebuilt = distribute(loader, num_replicas=2, rank=1)
    assert isinstance(rebuilt.sampler, DistributedSampler) and rebuilt is not loader
    kept = {name: getattr(rebuilt, name) for name in KEPT_ARGUMENTS}
    assert kept == {name: getattr(loader, name) for name in KEPT_ARGUMENTS}
    assert kept["prefetch_factor"] == 3 and kept["generator"] is loader.generator


def test_no_dataloader_argument_is_dropped() -> None:
    # A DataLoader argument torch adds later must be an attribute we copy, or one the sharding sets.
    loader = DataLoader(DATA)
    names = set(inspect.signature(DataLoader.__init__).parameters) - {"self"}
    assert {name for name in names if not hasattr(loader, name)} <= SAMPLING_ARGUMENTS
    assert set(KEPT_ARGUMENTS) == names - SAMPLING_ARGUMENTS


class Tagged(DataLoader[Any]):
    """A DataLoader subclass whose extra argument is kept as an attribute of the same name."""

    def __init__(self, dataset: Any, tag: str, **kwargs: Any) -> None:
        super().__init__(dataset, **kwargs)
        self.tag = tag


class Forgetful(DataLoader[Any]):
    def __init__(self, dataset: Any, secret: int, **kwargs: Any) -> None:
        super().__init__(dataset, **kwargs)


def test_a_subclass_is_rebuilt_with_its_own_arguments() -> None:
    rebuilt = distribute(Tagged(DATA, tag="train", batch_size=5), num_replicas=2, rank=0)
    assert (type(rebuilt), rebuilt.tag, rebuilt.batch_size) == (Tagged, "train", 5)
    with pytest.raises(MisconfigurationException, match=r"needs `secret`.*use_distributed_sampler=False"):
        distribute(Forgetful(DATA, secret=1), num_replicas=2, rank=0)


def test_an_opaque_batch_sampler_is_refused_with_advice_that_can_be_followed() -> None:
    with pytest.raises(MisconfigurationException, match=r"cannot shard the batch sampler Opaque.*use_distributed"):
        distribute(DataLoader(DATA, batch_sampler=Opaque()), num_replicas=2, rank=0)


@pytest.mark.parametrize(
    "loader",
    [
        pytest.param(DataLoader(DATA, sampler=DistributedSampler(DATA, 2, 0)), id="own DistributedSampler"),
        pytest.param(
            DataLoader(DATA, batch_sampler=BatchSampler(DistributedSampler(DATA, 2, 0), 2, False)),
            id="own DistributedSampler inside a batch sampler",
        ),
    ],
)
def test_a_loader_already_sharded_is_left_alone(loader: DataLoader[Any]) -> None:
    assert distribute(loader, num_replicas=2, rank=0) is loader


def test_an_iterable_dataset_passes_through_with_a_warning() -> None:
    loader = DataLoader(Stream(), batch_size=2)
    with pytest.warns(NewcoreWarning, match=r"cannot shard the IterableDataset Stream.*use_distributed_sampler"):
        assert distribute(loader, num_replicas=2, rank=1) is loader


def test_batches_are_moved_and_each_iteration_is_a_new_epoch() -> None:
    loader = RunnerDataLoader(distribute(DataLoader(DATA, batch_size=5, shuffle=True), 2, 0), torch.device("meta"))
    assert [b[0].device.type for b in loader] == ["meta"]
    list(loader)
    assert loader.sampler.epoch == 1 and len(loader) == 1 and loader.dataset is DATA


def _setup_in_workers(runner: Runner) -> dict[str, Any]:
    """Every loader kind through a real two-process Runner; returns what each rank saw, gathered."""

    def seen(loader: Any) -> list[int]:
        items = torch.cat([torch.atleast_1d(b[0] if isinstance(b, (list, tuple)) else b) for b in loader])
        return sorted(runner.all_gather(items).flatten().tolist())

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        stream = runner.setup_dataloaders(DataLoader(Stream(), batch_size=2))
        opted_out = runner.setup_dataloaders(DataLoader(Stream(), batch_size=2), use_distributed_sampler=False)
    sampled, single, batched = runner.setup_dataloaders(
        DataLoader(DATA, batch_size=3, shuffle=True, generator=torch.Generator()),
        DataLoader(DATA, batch_size=None),
        DataLoader(DATA, batch_sampler=BatchSampler(SequentialSampler(DATA), 3, False)),
    )
    unmoved = runner.setup_dataloaders(DataLoader(DATA), move_to_device=False)
    return {
        "stream": seen(stream),
        "warnings": sum(issubclass(w.category, NewcoreWarning) for w in caught),
        "opted_out": seen(opted_out),
        "sampled": seen(sampled),
        "single": seen(single),
        "batched": seen(batched),
        "generator_kept": sampled.generator is not None,
        "devices": (sampled.device, unmoved.device),
    }


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_two_ddp_spawn_workers_share_every_kind_of_loader() -> None:
    result = Runner(accelerator="cpu", strategy="ddp_spawn", devices=2).launch(_setup_in_workers)
    every_item = list(range(10))
    assert result == {
        "stream": sorted(2 * list(range(4))),  # not shardable from outside: each rank iterated it all
        "warnings": 1,  # ... and was told so, unless it opted out
        "opted_out": sorted(2 * list(range(4))),
        "sampled": every_item,
        "single": every_item,
        "batched": every_item,
        "generator_kept": True,
        "devices": (torch.device("cpu"), None),
    }


def test_setup_dataloaders_refuses_what_it_cannot_set_up() -> None:
    runner = Runner()
    with pytest.raises(MisconfigurationException, match="without a loader"):
        runner.setup_dataloaders()
    loader = runner.setup_dataloaders(DataLoader(DATA))
    with pytest.raises(MisconfigurationException, match="already set up"):
        runner.setup_dataloaders(loader)
    with pytest.raises(MisconfigurationException, match=r"takes `torch\.utils\.data\.DataLoader`s, got list"):
        runner.setup_dataloaders([1, 2])  # type: ignore[arg-type]
