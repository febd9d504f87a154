"""Keywords of a strategy that the Trainer's own flag sets (``DDPStrategy(num_nodes=2)``: the Trainer's
``num_nodes=`` overwrote it in 1.x and does at the target; ``legacy_api.keywords.OVERRIDDEN``), for rule
``removed_keywords``: dropped, with a report where the Trainer beside it does not pass the same value."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from legacy_api.keywords import OVERRIDDEN
from legacy_api.renames import PL

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

ID = "removed_keywords"
_TRAINER = f"{PL}.trainer.trainer.Trainer"
_STRATEGY = f"{PL}.strategies.strategy.Strategy"


def is_strategy(ctx: FileContext, path: str) -> bool:
    """The target's class at ``path`` (``X.__init__``) is a strategy, whose ``num_nodes`` the Trainer sets."""
    key = ctx.surface.resolve(path.removesuffix(".__init__"))
    return key is not None and _STRATEGY in ctx.surface.mro(key)


def _drop(args: list[cst.Arg], index: int) -> list[cst.Arg]:
    """``args`` without ``args[index]``; the last argument keeps the comma (or none) that closed the list."""
    kept = args[:index] + args[index + 1 :]
    if index == len(args) - 1 and kept:
        kept[-1] = kept[-1].with_changes(comma=args[index].comma)
    return kept


def drop(ctx: FileContext, original: cst.Call, updated: cst.Call, short: str, dropped: list[str]) -> cst.Call:
    """``DDPStrategy(num_nodes=2)`` -> ``DDPStrategy()``: the Trainer's own flag overwrote it in 1.x and does at the
    target (``legacy_api.keywords.OVERRIDDEN``). Where the Trainer call of the same statement does not pass the same
    value (or none is seen), a report too: the value had no effect in 1.x."""
    flags = _trainer_flags(ctx, original)
    args = list(updated.args)
    for keyword in dropped:
        index = next(i for i, arg in enumerate(args) if arg.keyword is not None and arg.keyword.value == keyword)
        written = ctx.code(args[index].value)
        args = _drop(args, index)
        flag, default = OVERRIDDEN[keyword]
        ctx.fix(ID, f"dropped {short}({keyword}={written}): the Trainer's {flag}= sets it, in 1.x as now", original)
        seen = flags.get(flag, default) if flags is not None else None
        if seen != written:
            where = f"Trainer({flag}={seen}) here" if seen is not None else f"the Trainer's {flag}=, not seen here,"
            ctx.report(
                ID,
                f"{short}({keyword}={written}) had no effect in 1.x ({where} overrode it): "
                f"pass Trainer({flag}={written}) if you meant it",
                original,
            )
    return updated.with_changes(args=args)


def _walk(node: cst.CSTNode) -> list[cst.CSTNode]:
    found = [node]
    for child in node.children:
        found += _walk(child)
    return found


def _trainer_flags(ctx: FileContext, call: cst.Call) -> dict[str, str] | None:
    """The keywords (as written) of the ``Trainer(...)`` call of the enclosing statement that holds ``call``
    (``Trainer(strategy=DDPPlugin(num_nodes=2), num_nodes=2)``); None where there is none, or it passes ``**``."""
    if not ctx.statements:
        return None
    for node in _walk(ctx.statements[-1]):
        if not isinstance(node, cst.Call) or node is call:
            continue
        name = ctx.qualified_name(node.func)
        if name is None or ctx.surface.resolve(name) != _TRAINER or not any(n is call for n in _walk(node)):
            continue
        if any(arg.star for arg in node.args):
            return None
        return {arg.keyword.value: ctx.code(arg.value) for arg in node.args if arg.keyword is not None}
    return None
