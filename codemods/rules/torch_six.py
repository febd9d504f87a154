"""``torch._six`` (imports and uses) gets a TODO at targets whose Lightning needs torch >= 2.0, which removed it.

``torch._six`` was torch's Python 2/3 layer; torch 2.0 removed it (pytorch#94709, its release notes), and Lightning
2.3 and later require torch >= 2.0 (the ``Requires-Dist`` of the recorded 2.3.3 … 2.6.6 packages). 1.x projects
imported ``string_classes``, ``int_classes``, ``container_abcs``, ``inf`` and ``nan`` from it (lightning-bolts'
data modules): their first import fails on the target's stack. Not a Lightning API, but the upgrade removes it, so
an import of names whose values a literal spells becomes an assignment of those values (``from torch._six import
string_classes`` -> ``string_classes = (str, bytes)``), and ``container_abcs`` the import torch 1.x's _six.py ran
(``import collections.abc as container_abcs``); anything else (a use through ``torch._six.``, a star import) gets a
TODO naming what each name was; a constant read through the module (``torch._six.string_classes``) becomes
its value.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.plan.rule import Rule

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

ID = "torch_six"
#: The first Lightning release whose torch requirement has no ``torch._six``.
_FROM = (2, 3)
#: What each name of torch 1.x's ``torch/_six.py`` was.
_WAS = {
    "string_classes": "(str, bytes)",
    "int_classes": "int",
    "container_abcs": "collections.abc",
    "inf": "torch.inf (or math.inf)",
    "nan": "torch.nan (or math.nan)",
    "PY3": "True",
    "PY37": "True",
}


#: The names whose value a literal spells exactly (``torch/_six.py`` of torch 1.x: ``string_classes = (str, bytes)``,
#: ``inf = math.inf``, ``PY3 = sys.version_info[0] == 3``); ``container_abcs`` is a module: the import stays a TODO.
_VALUES = {
    "string_classes": "(str, bytes)",
    "int_classes": "int",
    "inf": 'float("inf")',
    "nan": 'float("nan")',
    "PY3": "True",
    "PY37": "True",
}


def _message(ctx: FileContext, names: list[str]) -> str:
    said = "; ".join(f"{name} was {_WAS[name]}" for name in names if name in _WAS)
    return f"torch._six is gone in torch 2.0, which Lightning {ctx.surface.release} requires: " + (
        said or "use the Python 3 builtins it aliased"
    )


def _rebinds(names: list[str]) -> bool:
    """Whether :func:`leave_line` rebinds an import of ``names``: ``container_abcs`` among them, the rest constants."""
    return "container_abcs" in names and all(name in _VALUES or name == "container_abcs" for name in names)


def _six_import(ctx: FileContext, node: cst.BaseSmallStatement) -> list[tuple[str, str]] | None:
    """``from torch._six import a, b as c`` -> [("a", "a"), ("b", "c")] (name, the local it binds); None for any
    other statement, a star import, or below the target that drops torch._six."""
    if ctx.target < _FROM or not isinstance(node, cst.ImportFrom) or node.relative or node.module is None:
        return None
    if ctx.code(node.module) != "torch._six" or isinstance(node.names, cst.ImportStar):
        return None
    return [
        (ctx.code(alias.name), ctx.code(alias.asname.name) if alias.asname else ctx.code(alias.name))
        for alias in node.names
    ]


def leave_line(ctx: FileContext, original: cst.SimpleStatementLine, updated: Any) -> Any:
    """``from torch._six import container_abcs, string_classes`` alone on its line -> ``import collections.abc as
    container_abcs`` (what torch 1.x's _six.py itself ran), then the constants' assignment on the next line."""
    if len(original.body) != 1 or not isinstance(updated, cst.SimpleStatementLine):
        return updated
    names = _six_import(ctx, original.body[0])
    if names is None or not _rebinds([name for name, _ in names]):
        return updated
    texts = [f"import collections.abc as {local}" for name, local in names if name == "container_abcs"]
    constants = [(local, _VALUES[name]) for name, local in names if name != "container_abcs"]
    if constants:
        texts.append(f"{', '.join(local for local, _ in constants)} = {', '.join(value for _, value in constants)}")
    lines = []
    for position, text in enumerate(texts):
        statement = cst.parse_statement(text + "\n")
        assert isinstance(statement, cst.SimpleStatementLine)
        last = position == len(texts) - 1
        lines.append(
            statement.with_changes(
                leading_lines=updated.leading_lines if position == 0 else (),
                trailing_whitespace=updated.trailing_whitespace if last else statement.trailing_whitespace,
            )
        )
    ctx.fix(ID, f"{ctx.code(original.body[0])} -> {'; '.join(texts)} (torch 2.0 removed torch._six)", original.body[0])
    return cst.FlattenSentinel(lines) if len(lines) > 1 else lines[0]


def leave_import_from(ctx: FileContext, original: cst.ImportFrom, updated: cst.ImportFrom) -> Any:
    if ctx.target < _FROM or original.relative or original.module is None:
        return updated
    if ctx.code(original.module) != "torch._six":
        return updated
    names = [] if isinstance(original.names, cst.ImportStar) else [ctx.code(alias.name) for alias in original.names]
    line = ctx.statements[-1] if ctx.statements else None
    alone = isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and line.body[0] is original
    if alone and _rebinds(names):
        return updated  # leave_line writes it as the import torch 1.x ran
    if names and all(name in _VALUES for name in names) and not isinstance(original.names, cst.ImportStar):
        # ``from torch._six import string_classes, inf`` -> ``string_classes, inf = (str, bytes), float("inf")``:
        # the values torch 1.x's _six.py bound, under the names the module used
        bound = [ctx.code(alias.asname.name) if alias.asname else ctx.code(alias.name) for alias in original.names]
        values = [_VALUES[name] for name in names]
        text = f"{', '.join(bound)} = {', '.join(values)}"
        ctx.fix(ID, f"from torch._six import {', '.join(names)} -> {text} (torch 2.0 removed torch._six)", original)
        statement = cst.parse_statement(text + "\n")
        assert isinstance(statement, cst.SimpleStatementLine)
        return statement.body[0]
    ctx.todo(ID, _message(ctx, names), original)
    return updated


def leave_attribute(ctx: FileContext, original: cst.Attribute, updated: cst.Attribute) -> Any:
    """``torch._six.string_classes``: a use through the module."""
    if ctx.target < _FROM or ctx.in_import:
        return updated
    holder = original.value
    if isinstance(holder, cst.Attribute) and holder.attr.value == "_six" and ctx.code(holder) == "torch._six":
        name = original.attr.value
        if name in _VALUES:  # torch._six.string_classes -> (str, bytes): the value itself
            ctx.fix(ID, f"torch._six.{name} -> {_VALUES[name]} (torch 2.0 removed torch._six)", original)
            return cst.parse_expression(_VALUES[name])
        ctx.todo(ID, _message(ctx, [name]), original)
    return updated


def _visit() -> re.Pattern[str]:
    return re.compile(r"torch\._six\b")


RULE = Rule(
    id=ID,
    description="torch._six (removed in torch 2.0, which Lightning 2.3+ requires): an import of its constants binds "
    "their values and container_abcs becomes collections.abc; anything else is flagged with what each name was",
    deprecated_in="2.3",
    handlers={"ImportFrom": leave_import_from, "Attribute": leave_attribute, "SimpleStatementLine": leave_line},
    tokens=("torch._six",),
    visit=_visit,
)
