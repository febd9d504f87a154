"""Renames with preset arguments: ``DDPSpawnStrategy(...)`` is ``DDPStrategy(start_method="spawn", ...)`` in 2.0.

A row of the renames table with ``preset`` renames a class only where it is called, and the call gets the preset
keyword arguments it does not pass already (laid out as the call is); any other use of the name (``isinstance``, a
base class) has no exact spelling and gets a TODO. ``codemods.frontends.python.rename_hooks`` calls in here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.plan.resolve import Resolution

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext


def renamed_use(ctx: FileContext, res: Resolution, original: cst.CSTNode) -> bool:
    """A class renamed with preset arguments: a call is renamed (:func:`complete` adds them); any other use gets a
    TODO (``isinstance(s, DDPSpawnStrategy)`` has no exact spelling). True when the use was renamed."""
    if id(original) not in ctx.callees:
        # named as the code spells it: ``class RayPlugin(DDPSpawnPlugin)`` reads "DDPSpawnPlugin: DDPSpawnStrategy ..."
        spelled = res.old.rpartition(".")[2]
        message = res.note if res.note.startswith(spelled) else f"{spelled}: {res.note}"
        ctx.todo(res.rows[-1].rule, message, original)
        imported = ctx.preset_imports.pop(res.old, None)
        if imported is not None:  # the import stays for this use, and fails at the target: said where it is
            note = f"{spelled}: {res.note} (importing it fails there; its use carries a TODO)"
            ctx.report_back(res.rows[-1].rule, note, *imported)
        return False
    ctx.presets[id(original)] = res.preset
    return True


def visit_call(ctx: FileContext, original: cst.Call, _: Any) -> None:
    ctx.callees.add(id(original.func))


def complete(ctx: FileContext, original: cst.Call, updated: cst.Call) -> cst.Call:
    """A call of a class renamed with preset arguments (:func:`renamed_use`) gets the ones it does not pass."""
    preset = ctx.presets.pop(id(original.func), ())
    passed = {arg.keyword.value for arg in updated.args if arg.keyword is not None}
    if any(arg.star for arg in updated.args):  # ``**kwargs`` may hold start_method already: cannot add it safely
        return updated
    extra = [_keyword(key, value) for key, value in preset if key not in passed]
    if not extra:
        return updated
    return updated.with_changes(args=_append(updated, extra))


def _keyword(key: str, value: str) -> cst.Arg:
    tight = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))
    return cst.Arg(cst.SimpleString(f'"{value}"'), keyword=cst.Name(key), equal=tight)


def _append(call: cst.Call, extra: list[cst.Arg]) -> list[cst.Arg]:
    """``call``'s arguments with ``extra`` after them, laid out as the call is: one per line in a multi-line call
    (a comment after the last argument stays on its line), else ``, `` apart."""
    args = list(call.args)
    if not args:
        return extra
    last, opening = args[-1], call.whitespace_before_args
    multi = isinstance(opening, cst.ParenthesizedWhitespace)
    sep: cst.BaseParenthesizableWhitespace = cst.SimpleWhitespace(" ")
    if isinstance(opening, cst.ParenthesizedWhitespace):
        sep = cst.ParenthesizedWhitespace(indent=opening.indent, last_line=opening.last_line)
    if isinstance(last.comma, cst.Comma):
        closing = last.comma.whitespace_after
        if multi and isinstance(closing, cst.ParenthesizedWhitespace) and isinstance(sep, cst.ParenthesizedWhitespace):
            sep = sep.with_changes(first_line=closing.first_line, empty_lines=closing.empty_lines)
            closing = closing.with_changes(first_line=cst.TrailingWhitespace(), empty_lines=[])
        args[-1] = last.with_changes(comma=last.comma.with_changes(whitespace_after=sep))
        extra[-1] = extra[-1].with_changes(comma=last.comma.with_changes(whitespace_after=closing))
    else:
        args[-1] = last.with_changes(
            comma=cst.Comma(whitespace_after=sep), whitespace_after_arg=cst.SimpleWhitespace("")
        )
        extra[-1] = extra[-1].with_changes(whitespace_after_arg=last.whitespace_after_arg)
    return [*args, *extra]


def spelled(preset: tuple[tuple[str, str], ...]) -> str:
    """How a finding quotes the preset arguments: ``start_method="spawn"``."""
    return ", ".join(f'{key}="{value}"' for key, value in preset)
