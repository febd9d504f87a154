"""What a command must also set once the configs it overrides migrate: the keys 1.5 read from the config but that a
migrated config holds under other names.

``codemods.project.command_plans`` plans a command's overrides on their own; what they meant in 1.5 also depended on
the config they override. Two cases have one exact answer: ``trainer.gpus=0`` planned as ``accelerator=cpu`` over a
config whose ``devices: 2`` now applies (1.5 trained on one CPU: ``trainer.devices=1`` is written too), and
``trainer.accelerator=...`` over a config whose ``accelerator: ddp`` became ``strategy: ddp`` (1.5's command replaced
that strategy: ``trainer.strategy=auto`` is written too). And a token the target refuses whatever the configs
hold fails there loudly: :func:`fails_anyway`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from codemods.project.command_syntax import read_value
from legacy_api.renames import ACCELERATOR_NAMES

#: A command token: (style, prefix, key, value).
Item = tuple[str, str, str, str]
#: Device-count flags a command may set to choose the CPU (``gpus=0``).
_COUNTS = frozenset({"gpus", "num_processes", "tpu_cores", "ipus"})


def fills(
    items: Sequence[Item],
    replace: Mapping[int, list[Item]],
    sections: Sequence[frozenset[str]] | None,
    before: Sequence[frozenset[str]] | None,
    target: tuple[int, ...] = (2, 0),
) -> dict[int, list[Item]]:
    """``replace`` (token index -> the tokens that take its place) with what the command must also set.
    ``sections``: the keys of each Trainer section once migrated; ``before``: as written."""
    replace = _strategy_reset(items, _one_cpu(items, dict(replace)), sections, before)
    return _no_strategy(items, replace, sections, before, target)


def _one_cpu(items: Sequence[Item], replace: dict[int, list[Item]]) -> dict[int, list[Item]]:
    """``trainer.gpus=0`` that the plan turned into ``accelerator=cpu`` alone: over a config whose migrated section
    holds ``devices: 2`` that would train on two CPU processes, where 1.5 trained on one. The count 1.5 used is
    written in its place (``trainer.devices=1``, what ``accelerator=cpu`` takes with nothing else)."""
    written = {new[2]: new[3] for news in replace.values() for new in news}
    if written.get("accelerator") != "cpu" or "devices" in written or any(item[2] == "devices" for item in items):
        return replace
    dropped = [index for index, new in replace.items() if not new and items[index][2] in _COUNTS]
    if len(dropped) != 1:
        return replace
    style, prefix, _key, _value = items[dropped[0]]
    return {**replace, dropped[0]: [(style, prefix, "devices", "1")]}


def _strategy_reset(
    items: Sequence[Item],
    replace: dict[int, list[Item]],
    sections: Sequence[frozenset[str]] | None,
    before: Sequence[frozenset[str]] | None,
) -> dict[int, list[Item]]:
    """``trainer.accelerator=null`` (or ``=gpu``) over a config whose ``accelerator: ddp`` becomes ``strategy: ddp``:
    in 1.5 the command replaced that strategy, so once the config migrates it resets it too
    (``trainer.strategy=auto``, the target's choice where 1.5 made none). Only where some config's strategy comes
    from its accelerator and no config sets one of its own."""
    at = next((i for i, item in enumerate(items) if item[2] == "accelerator" and item[0] == "hydra"), None)
    if at is None or at not in replace or not sections or not before:
        return replace
    written = {new[2] for news in replace.values() for new in news} | {item[2] for item in items}
    if "strategy" in written:
        return replace
    moved = [
        "accelerator" in old and moved for old, moved in zip(before, _strategy_moved(before, sections), strict=True)
    ]
    if not any(moved) or any("strategy" in old for old in before):
        return replace
    style, prefix, _key, _value = items[at]
    return {**replace, at: [*replace[at], (style, "" if prefix == "+" else prefix, "strategy", "auto")]}


def _no_strategy(
    items: Sequence[Item],
    replace: dict[int, list[Item]],
    sections: Sequence[frozenset[str]] | None,
    before: Sequence[frozenset[str]] | None,
    target: tuple[int, ...],
) -> dict[int, list[Item]]:
    """``trainer.strategy=null`` (NeMo's CI, over a config's ``strategy: ddp``), which the rules drop as the default:
    in 1.5 it replaced the config's strategy with none, so it stays a reset, spelled ``trainer.strategy=auto`` from
    2.0 on (2.x refuses None; "auto" is its own "none chosen", under the selection policy's implicit choices) and
    as written before. Decided on the configs as they end up, so that a second run, which meets them migrated,
    decides the same: over one whose ``accelerator: ddp`` became ``strategy: ddp`` (which 1.5 kept under this
    command) :func:`null_strategy_over_moved` reports it."""
    dropped = [
        index
        for index, new in replace.items()
        if not new and items[index][2] == "strategy" and items[index][1] != "+" and read_value(items[index][3]) is None
    ]
    if not dropped or not sections or not before:
        return replace
    style, prefix, _key, value = items[dropped[0]]
    return {**replace, dropped[0]: [(style, prefix, "strategy", "auto" if target >= (2, 0) else value)]}


def null_strategy_over_moved(items: Sequence[Item], before: Sequence[frozenset[str]] | None, sections: object) -> bool:
    """Whether the command resets the strategy (``trainer.strategy=null``) over a config whose strategy came from its
    ``accelerator: ddp``: 1.5 kept that DDP, 2.x's "auto" picks DDP only on several devices (one process on one)."""
    if not before or not isinstance(sections, list | tuple) or len(sections) != len(before):
        return False
    nulls = any(item[2] == "strategy" and item[1] != "+" and read_value(item[3]) is None for item in items)
    return nulls and any(_strategy_moved(before, sections))


def _strategy_moved(before: Sequence[frozenset[str]], sections: Sequence[frozenset[str]]) -> list[bool]:
    """For each section: whether its migrated ``strategy`` comes from another key (``accelerator: ddp``)."""
    return ["strategy" in new and "strategy" not in old for old, new in zip(before, sections, strict=True)]


def fails_anyway(item: Item) -> bool:
    """A token the target refuses whatever the configs hold (``trainer.accelerator=ddp``, ``=null``: 2.x takes only
    a device type there; ``trainer.strategy=null``): a command left as it is with it, and with its own TODO, fails
    there loudly, so it holds no config back (as a key the target refuses does not)."""
    if item[2] == "strategy":
        return read_value(item[3]) is None  # 2.x rejects None there
    if item[2] != "accelerator":
        return False
    value = read_value(item[3])
    return value is None or (isinstance(value, str) and value.lower() not in ACCELERATOR_NAMES)
