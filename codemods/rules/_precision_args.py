"""The constructor arguments of 1.x precision plugins that 2.x refuses (rule ``precision_plugins``).

Runs after the rename hooks on the same call: ``NativeMixedPrecisionPlugin(16, "cuda")`` is already spelled
``MixedPrecision(...)`` in ``updated``; which class it was is read from the original callee's qualified name.

* 1.x AMP plugins (``NativeMixedPrecisionPlugin``, 1.9/2.0's ``MixedPrecisionPlugin``, 2.0's
  ``FSDPMixedPrecisionPlugin``): ``precision`` 16/"16"/"bf16" -> "16-mixed"/"bf16-mixed" from target 2.0;
* 1.6-1.9 ``DeepSpeedPrecisionPlugin(precision, amp_type, amp_level=None)``: the same values, 32 -> "32-true", and
  ``amp_type="native"`` (the only backend 2.0 has) dropped; apex or an unknown ``amp_type`` gets a TODO;
* ``FSDPMixedPrecisionPlugin(precision, device, scaler)``: from 2.1, where it becomes ``FSDPPrecisionPlugin``, its
  ``device`` goes (Lightning's own alias ignores it; ``FSDPPrecision`` takes ``precision, scaler``).

A precision that is not a literal, or a literal 2.x has no spelling for, stays as it is with one TODO naming
the values the target accepts (a call without one was broken in 1.x already, and is left to fail as it did).
Only ``pytorch_lightning`` code: newcore's plugins take the 1.x values.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import libcst as cst

from legacy_api.renames import PL

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

ID = "precision_plugins"

_MIXED: dict[object, str] = {16: "16-mixed", "16": "16-mixed", "bf16": "bf16-mixed"}
_MIXED_OK = ("16-mixed", "bf16-mixed")
_DEEPSPEED: dict[object, str] = {**_MIXED, 32: "32-true", "32": "32-true"}
_DEEPSPEED_OK = ("32-true", "16-mixed", "bf16-mixed")

#: 1.x class name -> (old precision value -> 2.x value, values 2.0 accepts).
_CLASSES: dict[str, tuple[dict[object, str], tuple[str, ...]]] = {
    "NativeMixedPrecisionPlugin": (_MIXED, _MIXED_OK),
    "MixedPrecisionPlugin": (_MIXED, _MIXED_OK),
    "FSDPMixedPrecisionPlugin": (_MIXED, _MIXED_OK),
    "DeepSpeedPrecisionPlugin": (_DEEPSPEED, _DEEPSPEED_OK),
}


def _class(ctx: FileContext, call: cst.Call) -> str | None:
    name = ctx.qualified_name(call.func)
    if name is None or not name.startswith(PL + "."):
        return None
    last = name.rpartition(".")[2]
    return last if last in _CLASSES else None


def _find(args: list[cst.Arg], keyword: str, position: int) -> int | None:
    """Index of the argument that binds parameter ``keyword`` (the ``position``-th positional one), if visible."""
    for index, arg in enumerate(args):
        if arg.keyword is not None and arg.keyword.value == keyword:
            return index
    positional = 0
    for index, arg in enumerate(args):
        if arg.star:
            return None  # ``*args`` may bind it: unknown
        if arg.keyword is None:
            if positional == position:
                return index
            positional += 1
    return None


def _literal(node: cst.BaseExpression) -> object:
    if isinstance(node, cst.Integer):
        return int(node.value)
    if isinstance(node, cst.SimpleString) and "b" not in node.prefix.lower() and "f" not in node.prefix.lower():
        return node.evaluated_value
    return _NOT_LITERAL


_NOT_LITERAL = object()


def _string(value: str, like: cst.BaseExpression, call: cst.Call) -> cst.SimpleString:
    """``value`` quoted as ``like`` is, or as the call's first string argument, or with double quotes."""
    quote = like.quote if isinstance(like, cst.SimpleString) and len(like.quote) == 1 else None
    if quote is None:
        strings = [arg.value.quote for arg in call.args if isinstance(arg.value, cst.SimpleString)]
        quote = next((q for q in strings if len(q) == 1), '"')
    return cst.SimpleString(f"{quote}{value}{quote}")


def _drop(args: list[cst.Arg], index: int) -> list[cst.Arg]:
    """``args`` without ``args[index]``; the last argument keeps the comma (or none) that closed the list."""
    kept = args[:index] + args[index + 1 :]
    if index == len(args) - 1 and kept:
        kept[-1] = kept[-1].with_changes(comma=args[index].comma)
    return kept


def _precision(ctx: FileContext, cls: str, shown_as: str, original: cst.Call, args: list[cst.Arg]) -> list[cst.Arg]:
    """``shown_as``: the class as the output spells it, so that a second run asks for the same TODO."""
    mapping, accepted = _CLASSES[cls]
    index = _find(args, "precision", 0)
    spelled = " or ".join(repr(value) for value in accepted)
    if index is None:
        if any(arg.star for arg in args):
            ctx.todo(ID, f"{shown_as}'s precision may come from *args/**kwargs: 2.x accepts {spelled} only", original)
        return args
    value = args[index].value
    literal = _literal(value)
    if literal in accepted:
        return args
    if isinstance(literal, bool) or literal is _NOT_LITERAL or literal not in mapping:
        shown = ctx.code(value)
        ctx.todo(ID, f"{shown_as}(precision={shown}): from 2.0 it accepts {spelled} (16 -> '16-mixed')", original)
        return args
    new = mapping[literal]
    ctx.fix(ID, f"{shown_as}(precision={ctx.code(value)}) is spelled {new!r} from 2.0", original)
    args[index] = args[index].with_changes(value=_string(new, value, original))
    return args


def _deepspeed_amp(ctx: FileContext, original: cst.Call, args: list[cst.Arg]) -> list[cst.Arg]:
    """1.6-1.9's ``amp_type``/``amp_level``: 2.0 has native AMP only and no such parameters."""
    amp_type, amp_level = _find(args, "amp_type", 1), _find(args, "amp_level", 2)
    if amp_type is None and amp_level is None:
        return args
    level = args[amp_level].value if amp_level is not None else None
    native = amp_type is not None and _literal(args[amp_type].value) == "native"
    if not native or (level is not None and not (isinstance(level, cst.Name) and level.value == "None")):
        ctx.todo(ID, "DeepSpeedPrecisionPlugin takes only precision from 2.0 (native AMP; apex is gone)", original)
        return args
    ctx.fix(ID, "DeepSpeedPrecisionPlugin: amp_type='native' is the only AMP of 2.0, which has no amp_type", original)
    for index in sorted((i for i in (amp_type, amp_level) if i is not None), reverse=True):
        args = _drop(args, index)
    return args


def leave_call(ctx: FileContext, original: cst.Call, updated: cst.Call) -> Any:
    """Rewrite the arguments of a 1.x precision plugin's constructor for a 2.x target."""
    if ctx.target < (2, 0) or not ctx.enabled(ID):
        return updated
    cls = _class(ctx, original)
    if cls is None or len(updated.args) != len(original.args):  # another hook changed the arguments: leave them
        return updated
    args = list(updated.args)
    if cls == "FSDPMixedPrecisionPlugin" and ctx.target >= (2, 1):
        device = _find(args, "device", 1)
        if device is not None:
            ctx.fix(ID, "FSDPMixedPrecisionPlugin's device is not an argument of FSDPPrecision (2.1)", original)
            args = _drop(args, device)
        elif any(arg.star for arg in args):
            ctx.todo(ID, "FSDPPrecision takes no device: check what *args/**kwargs pass", original)
    if cls == "DeepSpeedPrecisionPlugin":
        args = _deepspeed_amp(ctx, original, args)
    func = updated.func
    shown_as = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else cls
    args = _precision(ctx, cls, shown_as, original, args)
    if len(args) == len(updated.args) and all(new is old for new, old in zip(args, updated.args, strict=True)):
        return updated
    return updated.with_changes(args=args)
