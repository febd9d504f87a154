"""The shapes 1.5 gave ``on_train_batch_end`` and ``training_epoch_end`` under automatic optimization with several
optimizers, from the per-batch ``{optimizer_idx: step output}`` dicts the shim's 1.x optimizer loop collects.

A port of 1.5.10's ``TrainingEpochLoop._prepare_outputs_training_batch_end`` / ``_prepare_outputs_training_epoch_end``
and their helpers (``loops/epoch/training_epoch_loop.py``), kept as they were, quirks included: the outputs are a
numpy object array ``(batches, optimizers)`` that is transposed and squeezed, so one optimizer gives a flat list, one
batch of two optimizers gives ``[out0, out1]``, and an optimizer that skipped a batch (frequencies, a ``None`` loss)
leaves no entry. The shim runs no truncated back-propagation, so each batch is one split.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from typing import Any

#: What the loop collects per batch: optimizer index -> that optimizer's step output (``{"loss": ..., **extra}``).
BatchOutput = dict[int, dict[str, Any]]


def _by_optimizer(output: BatchOutput, optimizers: int) -> list[Any]:
    """1.5's ``_convert_optim_dict``: a list with one entry per optimizer, None where it has no output."""
    return [output.get(index) for index in range(optimizers)]


def _unpad(nested: Any, value: Any = None) -> Any:
    """1.5's ``_recursive_unpad``: ``value`` removed from every level of nested lists."""
    if not isinstance(nested, list):
        return nested
    return [_unpad(item, value) for item in nested if item is not value]


def _dimensions(array: list[Any], level: int = 0) -> Iterator[tuple[int, int]]:
    yield level, len(array)
    if all(isinstance(row, list) for row in array):
        for row in array:
            yield from _dimensions(row, level + 1)


def _leaves(array: list[Any], index: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], list[Any]]]:
    if all(isinstance(item, list) for item in array):
        for position, row in enumerate(array):
            yield from _leaves(row, (*index, position))
    else:
        yield (*index, slice(len(array))), array


def _pad(nested: list[Any]) -> Any:
    """1.5's ``_recursive_pad``: a jagged list of lists as a rectangular object array padded with None."""
    import numpy as np

    sizes: dict[int, int] = defaultdict(int)
    for level, length in _dimensions(nested):
        sizes[level] = max(sizes[level], length)
    result = np.full([size for _, size in sorted(sizes.items())], None, dtype=object)
    for index, value in _leaves(nested):
        target = result[index]
        for position, item in enumerate(value):  # item by item: numpy would unpack a list-valued item
            target[position] = item
    return result


def batch_end_outputs(output: BatchOutput, optimizers: int) -> Any:
    """What 1.5 passed to ``on_train_batch_end`` for one batch (an empty list when every optimizer skipped)."""
    import numpy as np

    if not output:
        return []
    array = np.empty((1, optimizers), dtype=object)  # (splits, optimizers), then transposed
    for index, value in enumerate(_by_optimizer(output, optimizers)):
        array[0, index] = value
    return _unpad(array.transpose((1, 0)).squeeze().tolist())


def epoch_end_outputs(batches: list[BatchOutput], optimizers: int) -> Any:
    """What 1.5 passed to ``training_epoch_end``: ``batches`` holds one entry per batch run (``{}`` where every
    optimizer skipped it)."""
    if not batches:
        return []
    nested = [[_by_optimizer(output, optimizers)] if output else [] for output in batches]
    array = _pad(nested)
    if array.ndim == 2:
        array = array[:, :, None]
    squeezed = array.transpose((2, 0, 1)).squeeze().tolist()
    unpadded = _unpad(squeezed)
    listed = unpadded if isinstance(unpadded, list) else [unpadded]
    return [item for item in listed if not isinstance(item, list) or len(item)]
