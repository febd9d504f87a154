"""What the collectives share: the reduce operations, and how collections of tensors and numbers pass through.

Strategies check ``op`` against their :attr:`~newcore.strategies.strategy.Strategy.reduce_ops` with
:func:`check_reduce_op`; :class:`~newcore.runner.Runner` reads Lightning Fabric 2.x's spellings
(``"mean"``, ``"avg"``, any case, or a ``torch.distributed.ReduceOp``) with :func:`reduce_op_name`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal, cast

import torch

from newcore.exceptions import MisconfigurationException

ReduceOp = Literal["sum", "mean", "max", "min"]

#: Every reduction newcore knows; on one process each of them is the identity.
REDUCE_OPS: tuple[ReduceOp, ...] = ("sum", "mean", "max", "min")

#: Fabric's string spellings that are not our names (``torch.distributed``'s ``AVG``).
_ALIASES = {"avg": "mean"}


def reduce_op_name(op: object) -> ReduceOp | None:
    """Our name for ``op`` (a string in any case, ``"avg"``, or a ``torch.distributed.ReduceOp``), else ``None``."""
    if isinstance(op, str):
        name = _ALIASES.get(op.strip().lower(), op.strip().lower())
        return name if name in REDUCE_OPS else None
    # A ReduceOp member also equals its enum's integer, so plain ints must not reach the comparison.
    members = getattr(torch.distributed, "ReduceOp", None)
    if members is None or isinstance(op, (bool, int)) or not isinstance(op, members):
        return None
    for name, member in (("sum", "SUM"), ("mean", "AVG"), ("max", "MAX"), ("min", "MIN")):
        if op == getattr(members, member, object()):
            return cast(ReduceOp, name)
    return None


def check_reduce_op(op: object, supported: tuple[ReduceOp, ...], flag: str) -> ReduceOp:
    """``op`` as one of ``supported``; a :class:`MisconfigurationException` naming them otherwise.

    ``flag`` is the strategy as the user chose it (``strategy='horovod'``). Called on one process too, so
    a reduction a strategy cannot do fails on the laptop and not first on the cluster.
    """
    name = reduce_op_name(op)
    if name is None or name not in supported:
        valid = ", ".join(repr(s) for s in supported)
        raise MisconfigurationException(f"`all_reduce(op={op!r})` is not supported by `{flag}`; pass one of {valid}.")
    return name


def to_tensors(data: Any, device: torch.device) -> Any:
    """``data`` with every Python number made a tensor and every tensor on ``device`` (collections kept)."""

    def convert(value: Any) -> Any:
        if isinstance(value, torch.Tensor):
            return value.to(device)
        if isinstance(value, (bool, int, float)):
            return torch.tensor(value, device=device)
        return value

    return apply_to_leaves(data, convert)


def apply_to_leaves(data: Any, fn: Callable[[Any], Any]) -> Any:
    """``fn`` applied to everything in ``data`` that is not a dict, list or (named) tuple; the nesting kept."""
    if isinstance(data, Mapping):
        items = {key: apply_to_leaves(value, fn) for key, value in data.items()}
        try:
            return cast(Any, type(data))(items)
        except TypeError:  # a mapping type that cannot be built from a dict (defaultdict, custom ones)
            return items
    if isinstance(data, tuple) and hasattr(data, "_fields"):  # a namedtuple takes its fields positionally
        return type(data)(*(apply_to_leaves(value, fn) for value in data))
    if isinstance(data, (list, tuple)):
        return type(data)(apply_to_leaves(value, fn) for value in data)
    return fn(data)


def no_group(group: Any | None, flag: str) -> None:
    """Raise unless ``group`` is ``None``: for strategies whose collectives span every process or none."""
    if group is not None:
        raise MisconfigurationException(
            f"`{flag}` runs its collectives over all processes and takes no process group, but `group={group!r}`"
            " was passed. Drop `group=`, or use a `torch.distributed` strategy such as `strategy='ddp'`."
        )
