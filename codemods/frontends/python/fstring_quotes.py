"""A string a rule wrote inside an f-string's ``{...}`` takes the quote the f-string does not use.

Rules write their strings with double quotes (``DeviceType.GPU`` -> ``"gpu"``); inside
``f"used: {x == DeviceType.GPU}"`` that would end the f-string before Python 3.12 (PEP 701), and the rewrite would
not parse (TALI's copy of 1.5's Trainer). Run on a rewritten tree before its code is written: each plain string in
the expressions of a single-quoted f-string whose quote clashes with an enclosing one is requoted, where its text
allows (no backslash, which those expressions cannot hold either, and not the other quote). What cannot be
requoted is left: the compile check after the rules then keeps the file as it was, with an error.
"""

from __future__ import annotations

import re

import libcst as cst

#: An f-string's opening in source text: ``f"``, ``rf'``, ``F"""``... (a gate: most chunks hold none).
_FSTRING = re.compile(r"(?<![\w])[rR]?[fF][rR]?[\"']")


def may_hold_fstrings(text: str) -> bool:
    """Whether ``text`` may contain an f-string (cheap: a regex over the text)."""
    return _FSTRING.search(text) is not None


class _Strings(cst.CSTVisitor):
    def __init__(self) -> None:
        self.found: set[int] = set()

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        self.found.add(id(node))


class _Requote(cst.CSTTransformer):
    def __init__(self, written: set[int]) -> None:
        self.quotes: list[str] = []  # the quote of each enclosing single-quoted f-string
        self.written = written  # the strings the input had: as they are (Python 3.12 code may reuse a quote)

    def visit_FormattedString(self, node: cst.FormattedString) -> None:
        quote = node.end
        self.quotes.append(quote if len(quote) == 1 else "")  # a triple-quoted one takes either quote inside

    def leave_FormattedString(
        self, original_node: cst.FormattedString, updated_node: cst.FormattedString
    ) -> cst.FormattedString:
        self.quotes.pop()
        return updated_node

    def leave_SimpleString(self, original_node: cst.SimpleString, updated_node: cst.SimpleString) -> cst.SimpleString:
        taken = {quote for quote in self.quotes if quote}
        if not taken or id(original_node) in self.written:
            return updated_node
        value = updated_node.value
        prefix = value[: len(value) - len(value.lstrip("rRbBuU"))]
        body = value[len(prefix) :]
        quote = body[:1]
        if quote not in taken or body.startswith(quote * 3):
            return updated_node
        other = "'" if quote == '"' else '"'
        inner = body[1:-1]
        if other in taken or other in inner or "\\" in inner:
            return updated_node
        return updated_node.with_changes(value=f"{prefix}{other}{inner}{other}")


def requote(before: cst.Module, after: cst.Module) -> cst.Module:
    """``after`` (the rules' rewrite of ``before``, whose nodes it shares where unchanged) with each string a rule
    wrote inside an f-string's expressions requoted where it clashes."""
    strings = _Strings()
    before.visit(strings)
    return after.visit(_Requote(strings.found))
