"""Positional arguments to a Lightning class whose ``__init__`` binds them to other parameters at the target (issue
25 part 3): ``ModelCheckpoint(d, f, m, v, last, 3, True)`` (2.x inserted ``save_on_exception`` before
``save_weights_only``), ``super().__init__(devices, 1)`` in a subclass of ``DDPPlugin`` (renamed ``DDPStrategy``, whose
first parameter is ``accelerator``): a TypeError at best, a silently wrong setting at worst. pytorch_lightning only.

The legacy order is the class as written, in 1.5.10's recorded signature (never the renamed class's: other rules
rename ``DDPPlugin`` and its bases in the same pass, and this rule reads the original node); the target's is the
signature recorded for what the renames table makes of it (``legacy_api.surface``). Where the positions bind other
names, the arguments get the 1.5 names as keywords when the target's signature has every one of them by name (not
only through ``**kwargs``), which holds whatever the order; otherwise one TODO gives both orders.

Where: a call of the class (``ModelCheckpoint(...)``, ``pl.plugins.DDPPlugin(...)``), ``Base.__init__(self, ...)``, and
``super().__init__(...)`` in the ``__init__`` of a class whose first base is a Lightning class. Not: a call with
``*args`` (or a ``...`` placeholder) among its positional arguments, or that another rule already reshaped (it has fewer
arguments than written).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.frontends.python.context import super_call
from codemods.plan.resolve import resolve
from codemods.plan.rule import Rule
from legacy_api.renames import PL
from legacy_api.surface import arguments, surface

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext, Site

ID = "positional_arguments"
#: The release whose signatures the legacy code was written against.
LEGACY = "1.5.10"


def _positional(args: ast.arguments) -> list[str]:
    """The names positions bind, ``self`` left out."""
    return [a.arg for a in [*args.posonlyargs, *args.args]][1:]


def _by_name(args: ast.arguments) -> set[str]:
    """The names a keyword argument can bind (a positional-only one cannot)."""
    return {a.arg for a in [*args.args, *args.kwonlyargs]}


def _is_super_init(func: cst.BaseExpression) -> bool:
    return (
        isinstance(func, cst.Attribute)
        and func.attr.value == "__init__"
        and isinstance(func.value, cst.Call)
        and isinstance(func.value.func, cst.Name)
        and func.value.func.value == "super"
    )


def _enclosing_base(ctx: FileContext) -> str | None:
    """The first base of the class whose ``__init__`` is being visited, when it is Lightning's."""
    statements = ctx.statements
    functions = [i for i, s in enumerate(statements) if isinstance(s, cst.FunctionDef)]
    if not functions or statements[functions[-1]].name.value != "__init__":
        return None
    classes = [s for s in statements[: functions[-1]] if isinstance(s, cst.ClassDef)]
    if not classes or not classes[-1].bases or functions[-1] != statements.index(classes[-1]) + 1:
        return None
    return ctx.qualified_name(classes[-1].bases[0].value)


def _legacy_class(ctx: FileContext, call: cst.Call) -> tuple[str, int] | None:
    """The Lightning class ``call`` constructs and how many of its leading arguments are not parameters (``self``)."""
    if _is_super_init(call.func):
        name, skip = _enclosing_base(ctx), 0
    else:
        name = ctx.qualified_name(call.func)
        skip = 0
        if name is not None and name.endswith(".__init__"):
            name, skip = name.removesuffix(".__init__"), 1
    if name is None or name.split(".", 1)[0] != PL:
        return None
    return name, skip


def _leading_positional(args: Sequence[cst.Arg]) -> int | None:
    """How many arguments come before the first keyword; None when a ``*args`` hides how many there are."""
    count = 0
    for arg in args:
        if arg.keyword is not None or arg.star == "**":
            break
        if arg.star == "*" or isinstance(arg.value, cst.Ellipsis):
            return None  # unknown how many positions (``*args``; a docs placeholder ``Trainer(..., x=1)``)
        count += 1
    return count


def _target_class(ctx: FileContext, name: str) -> str | None:
    found = resolve(name, ctx.target)
    if found is None:
        return name
    return found.new


def _keyword(arg: cst.Arg, name: str) -> cst.Arg:
    return arg.with_changes(
        keyword=cst.Name(name),
        equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")),
    )


def leave_call(ctx: FileContext, original: cst.Call, updated: cst.Call) -> Any:
    found = _legacy_class(ctx, original)
    if found is None:
        return updated
    name, skip = found
    count = _leading_positional(original.args)
    if count is None or count <= skip or len(updated.args) < len(original.args):
        return updated
    target = _target_class(ctx, name)
    old = arguments(surface(LEGACY).signature(f"{name}.__init__"))
    new = arguments(ctx.surface.signature(f"{target}.__init__")) if target is not None else None
    if old is None or new is None:
        return updated
    given = count - skip
    before, after = _positional(old)[:given], _positional(new)[:given]
    if len(before) < given or before == after:
        return updated  # more positions than 1.5 had: the call was broken there already
    short, release = name.rpartition(".")[2], ctx.surface.release
    keywords = {arg.keyword.value for arg in original.args if arg.keyword is not None}
    # Only the arguments from the first position that binds another name on: the others read the same either way.
    first = next(index for index, param in enumerate(before) if index >= len(after) or after[index] != param)
    moved = before[first:]
    lacking = [param for param in moved if param not in _by_name(new)]
    if lacking or keywords & set(moved):
        missing = f"; {release} has no parameter {', '.join(lacking)}" if lacking else ""
        ctx.todo(
            ID,
            f"{short}'s positional arguments bind ({', '.join(before)}) in Lightning 1.5 but "
            f"({', '.join(after) or 'nothing'}) in {release}{missing}: pass them by keyword",
            original,
        )
        return updated
    ctx.fix(ID, f"{short}(...): positional arguments passed by keyword ({'=, '.join(moved)}=)", original)
    args = list(updated.args)
    for index, param in enumerate(moved, start=skip + first):
        args[index] = _keyword(args[index], param)
    return updated.with_changes(args=args)


def _visit() -> re.Pattern[str]:
    """``super().__init__(a, b)`` names nothing of Lightning."""
    return re.compile(r"\.__init__\s*\(")


def _screen(site: Site) -> bool:
    """Whether a call the line holds may pass a position this rule moves: not ``super().__init__()`` or
    ``super().__init__(**kwargs)`` (no position at all), nor a call of something no legacy import names (only
    ``super().__init__`` reaches a Lightning class without one)."""
    for call in site.calls():
        if not call.args:
            continue
        if super_call(call.func) is not None or site.imported_root(call.func):
            return True
    return False


RULE = Rule(
    id=ID,
    description="positional arguments to a Lightning class whose parameters moved (ModelCheckpoint, a DDPPlugin "
    "subclass's super().__init__) are passed by their 1.5 names, or flagged",
    deprecated_in="1.6",
    handlers={"Call": leave_call},
    tokens=("pytorch_lightning",),
    visit=_visit,
    screen=_screen,
)
