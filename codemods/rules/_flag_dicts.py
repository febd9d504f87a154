"""Dicts of Trainer flags that no rule follows to a Trainer (rule ``legacy_keys``' TODOs on them).

In a file that imports Lightning, a dict whose keys show it holds a Trainer's flags (a key only a Trainer takes, such as
``max_epochs``, next to a legacy one: darts' ``self.trainer_params = {"gpus": gpus, "max_epochs": n}``, handed to
another method) gets a TODO: the target's Trainer refuses the flag wherever the dict reaches it, so ``--check`` must
not pass on it. :func:`leave_dict` notes each such dict; :func:`leave_line` writes the TODOs of a line no rule changed,
leaving the dicts the flag rules follow to a Trainer (a ``**kwargs`` splat, ``trainer_defaults=``, a config they
rewrite) and a config's Trainer section built in Python (read key by key, rule ``config_reads``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from legacy_api.removed_arguments import refused_at
from legacy_api.renames import STRATEGY_NAMES

if TYPE_CHECKING:
    import libcst as cst

    from codemods.frontends.python.context import FileContext

#: The rule these TODOs belong to.
ID = "legacy_keys"
#: Flag -> what it became.
BECAME = {
    "gpus": 'accelerator="gpu", devices=N (gone in 2.0)',
    "tpu_cores": 'accelerator="tpu", devices=N (gone in 2.0)',
    "ipus": 'accelerator="ipu", devices=N (gone in 2.0)',
    "num_processes": 'accelerator="cpu", devices=N (gone in 2.0)',
    "distributed_backend": "strategy= (gone in 1.5)",
}
STRATEGY_NAME = "strategy= (a strategy name in accelerator= is gone in 1.7)"
#: Trainer flags of 1.5 whose names say Trainer: a dict holding one next to a legacy flag is a Trainer's flags.
TRAINER_ONLY = frozenset(
    {
        "max_epochs",
        "min_epochs",
        "max_steps",
        "accumulate_grad_batches",
        "check_val_every_n_epoch",
        "val_check_interval",
        "limit_train_batches",
        "limit_val_batches",
        "num_sanity_val_steps",
        "gradient_clip_val",
        "log_every_n_steps",
        "fast_dev_run",
        "num_nodes",
        "auto_select_gpus",
        "resume_from_checkpoint",
    }
)


def flags_dict(keys: Sequence[str | None], strategy_values: Sequence[bool]) -> list[str]:
    """The legacy flags of a dict whose other keys show it holds a Trainer's flags (``"max_epochs"`` next to
    ``"gpus"``); empty for any other dict. ``strategy_values``: whether each key's value is a strategy name."""
    if not any(key in TRAINER_ONLY for key in keys):
        return []
    return [
        key
        for key, strategy in zip(keys, strategy_values, strict=True)
        if key is not None and (key in BECAME or (key == "accelerator" and strategy))
    ]


#: Calls whose dict arguments the flag rules read themselves (``Trainer(**{...})``, ``trainer_defaults={...}``,
#: ``OmegaConf.create({"trainer": {...}})``).
_READ_BY_FLAG_RULES = re.compile(r"(?:Trainer|CLI|from_argparse_args|OmegaConf\s*\.\s*\w+|DictConfig)\s*\(")


def leave_dict(ctx: FileContext, original: cst.Dict, updated: cst.Dict) -> Any:
    """A dict of a Lightning file holding a Trainer's flags (a key only a Trainer takes next to a legacy one), such
    as darts' ``self.trainer_params = {"gpus": gpus, "max_epochs": n}`` handed to another method: noted for
    :func:`leave_line`, which gives it a TODO where no rule followed it to a Trainer."""
    import libcst as cst

    if not ctx.analysis.imported or not ctx.statements:
        return updated
    keys: list[str | None] = []
    strategies: list[bool] = []
    for element in original.elements:
        key = element.key if isinstance(element, cst.DictElement) else None
        value = key.evaluated_value if isinstance(key, cst.SimpleString) else None
        keys.append(value if isinstance(value, str) else None)
        text = element.value.evaluated_value if isinstance(element.value, cst.SimpleString) else None
        strategies.append(isinstance(text, str) and text.lower() in STRATEGY_NAMES)
    flags = flags_dict(keys, strategies)
    if flags:
        ctx.screened.setdefault((ID, id(ctx.statements[-1])), []).append((flags, original))
    return updated


def leave_line(ctx: FileContext, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine) -> Any:
    """The TODOs of :func:`leave_dict`'s dicts on a line no rule changed or flagged: a dict the flag rules follow
    to a Trainer (a ``**kwargs`` splat, ``trainer_defaults=``, a config they rewrite) is theirs."""
    import libcst as cst

    found = ctx.screened.pop((ID, id(original)), None)
    if not found or not updated.deep_equals(original) or ctx.todos.get(id(original)):
        return updated
    for small in original.body:
        targets = small.targets if isinstance(small, cst.Assign) else ()
        if any(isinstance(t.target, cst.Name) and t.target.value in ctx.trainer_dicts for t in targets):
            return updated  # the flag rules migrate it where it is splatted (codemods.frontends.python.flags)
        if any(_section_store(t.target) for t in targets):
            return updated  # config.trainer = Munch({...}): a config's section, read key by key (rule config_reads)
    if _READ_BY_FLAG_RULES.search(ctx.code(original)):
        return updated
    for listed, node in found:
        flags = [flag for flag in listed if refused(flag, ctx.target)]
        if not flags:
            continue  # deprecated at this target, not refused: the report says it
        said = "; ".join(f"{flag} is {BECAME.get(flag, STRATEGY_NAME)}" for flag in flags)
        them = "it" if len(flags) == 1 else "them"
        ctx.todo(
            ID,
            f"{', '.join(flags)} in a dict of Trainer flags: Lightning {ctx.surface.release}'s Trainer refuses "
            f"{them}; where this dict reaches a Trainer, {said}",
            node,
        )
    return updated


def refused(flag: str, target: tuple[int, ...]) -> bool:
    """Whether the target's Trainer refuses ``flag`` (``gpus`` only from 2.0; 1.7 to 1.9 deprecate it); a strategy
    name in ``accelerator`` is refused wherever this rule acts (1.7 on)."""
    return flag == "accelerator" or refused_at(flag, target)


def _section_store(target: cst.BaseAssignTargetExpression) -> bool:
    """``config.trainer = ...``, ``cfg["trainer"] = ...``: the store of a config's Trainer section."""
    import libcst as cst

    if isinstance(target, cst.Attribute):
        return target.attr.value == "trainer"
    if isinstance(target, cst.Subscript) and len(target.slice) == 1:
        key = target.slice[0].slice
        return (
            isinstance(key, cst.Index) and isinstance(key.value, cst.SimpleString) and key.value.raw_value == "trainer"
        )
    return False
