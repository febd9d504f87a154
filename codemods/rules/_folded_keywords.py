"""Keywords the target folded into one dict keyword: ``LightningCLI(save_config_overwrite=True)`` ->
``LightningCLI(save_config_kwargs={"overwrite": True})`` (``legacy_api.keywords.FOLDED``), for rule
``removed_keywords``."""

from __future__ import annotations

from collections.abc import Iterable

import libcst as cst

from legacy_api.keywords import FOLDED

#: The keyword whose value received the folded ones in 1.x, positionally where it was the project's own class
#: (1.5.10's LightningCLI called ``save_config_callback(parser, config, config_filename, overwrite=, multifile=)``;
#: 2.x passes ``config_filename=`` by name): given anything but None, the fold could change the call it gets.
_RECEIVER = {"pytorch_lightning.cli.LightningCLI": "save_config_callback"}
#: Positional arguments 1.x and the target read alike (``LightningCLI(Model, DataModule, ...)``).
_SAME_POSITIONS = 2


def foldable(call: cst.Call, owner: str, refused: Iterable[str]) -> list[str]:
    """The keywords of ``refused`` that ``call`` (of ``owner``, a target path) can fold into their dict keyword,
    in the order written; none where the call passes ``*``/``**``, more positions than both releases read alike, the
    dict keyword itself, or a value for what received them in 1.x."""
    wanted = {keyword for keyword in refused if (owner, keyword) in FOLDED}
    if not wanted or any(arg.star for arg in call.args):
        return []
    if sum(1 for arg in call.args if arg.keyword is None) > _SAME_POSITIONS:
        return []
    given = {arg.keyword.value: arg.value for arg in call.args if arg.keyword is not None}
    receiver = given.get(_RECEIVER.get(owner, ""))
    if receiver is not None and not (isinstance(receiver, cst.Name) and receiver.value == "None"):
        return []
    into = {FOLDED[(owner, keyword)][0] for keyword in wanted}
    if len(into) != 1 or into & set(given):
        return []
    return [arg.keyword.value for arg in call.args if arg.keyword is not None and arg.keyword.value in wanted]


def fold(call: cst.Call, owner: str, keywords: list[str]) -> cst.Call:
    """``call`` with ``keywords`` (from :func:`foldable`) replaced by one dict keyword where the first of them
    stood: ``{"overwrite": True, "multifile": False}``, the values as written."""

    def folded(arg: cst.Arg) -> bool:
        return arg.keyword is not None and arg.keyword.value in keywords

    first = next(index for index, arg in enumerate(call.args) if folded(arg))
    elements = [
        cst.DictElement(cst.SimpleString(f'"{FOLDED[(owner, arg.keyword.value)][1]}"'), arg.value)
        for arg in call.args
        if arg.keyword is not None and folded(arg)
    ]
    spaced = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    elements = [e.with_changes(comma=spaced) if i < len(elements) - 1 else e for i, e in enumerate(elements)]
    args = [arg for index, arg in enumerate(call.args) if index == first or not folded(arg)]
    if folded(call.args[-1]) and args[-1] is not call.args[-1]:
        args[-1] = args[-1].with_changes(comma=call.args[-1].comma)  # the call's last comma (or none) stays last
    into = FOLDED[(owner, keywords[0])][0]  # (nothing before the first folded keyword went)
    args[first] = args[first].with_changes(keyword=cst.Name(into), value=cst.Dict(elements))
    return call.with_changes(args=args)
