"""``trainer.logger.log_hyperparams(h)`` in a project that passes the Trainer a list of loggers: call each logger.

Lightning 1.5 wrapped ``Trainer(logger=[...])`` in a ``LoggerCollection`` whose ``log_hyperparams``, ``log_metrics``,
``log_graph``, ``save``, ``finalize``, ... called every logger in it (nothing for an empty list). 1.6 made
``trainer.logger`` ``None`` for an empty list, 1.8 the first logger of several and removed ``LoggerCollection``;
``trainer.loggers`` (1.6) is the list. So in a project that builds such a list (``Options.logger_lists``, phase one)
a call statement on ``<trainer>.logger`` or a LightningModule's ``self.logger`` becomes a loop over ``.loggers``: the
same calls as 1.5 made, for one logger, several or none (where 1.5 raised on a Trainer without a logger, the loop
does nothing). Written only where it is exact: a whole statement inside a function, arguments that call nothing but
builtins such as len() (evaluated once per logger), and a loop variable the function never names. Any other such call
gets a TODO.


"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.plan.rule import Rule
from codemods.rules._member_receivers import trainer_or_module

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

ID = "trainer_loggers"
#: The methods 1.5.10's ``LoggerCollection`` forwarded to each of its loggers (``loggers/base.py``).
BROADCAST = frozenset(
    {
        "after_save_checkpoint",
        "agg_and_log_metrics",
        "close",
        "finalize",
        "log_graph",
        "log_hyperparams",
        "log_image",
        "log_metrics",
        "log_text",
        "save",
        "update_agg_funcs",
    }
)
#: Builtins whose call gives an equal value each time: an argument that calls only these may be evaluated per logger.
_PURE = frozenset(
    {
        "abs",
        "bool",
        "dict",
        "float",
        "format",
        "int",
        "len",
        "list",
        "max",
        "min",
        "repr",
        "round",
        "sorted",
        "str",
        "tuple",
        "vars",
    }
)
_NAMES = ("logger", "each_logger", "lightning_logger")


def _holder(ctx: FileContext, call: cst.Call) -> cst.BaseExpression | None:
    """``trainer`` of ``trainer.logger.log_metrics(...)`` when it is a Trainer or a LightningModule; else None."""
    func = call.func
    if not (isinstance(func, cst.Attribute) and func.attr.value in BROADCAST):
        return None
    logger = func.value
    if not (isinstance(logger, cst.Attribute) and logger.attr.value == "logger"):
        return None
    return logger.value if trainer_or_module(ctx, logger.value) else None


class _Impure(cst.CSTVisitor):
    """Finds what may give another value each time it runs: a call (but for :data:`_PURE` builtins), an await, a
    yield, an assignment expression."""

    def __init__(self) -> None:
        super().__init__()
        self.found = False

    def visit_Call(self, node: cst.Call) -> bool:
        if isinstance(node.func, cst.Name) and node.func.value in _PURE:
            return True  # ``len(x)``, ``dict(h)``: the same value again (unless its own arguments call more)
        self.found = True
        return False

    def visit_Await(self, node: cst.Await) -> bool:
        self.found = True
        return False

    def visit_Yield(self, node: cst.Yield) -> bool:
        self.found = True
        return False

    def visit_NamedExpr(self, node: cst.NamedExpr) -> bool:
        self.found = True
        return False


def _calls_nothing(call: cst.Call) -> bool:
    finder = _Impure()
    for arg in call.args:
        arg.visit(finder)
    return not finder.found


def _fresh_name(ctx: FileContext) -> str | None:
    """A loop variable the enclosing function never names (a ``for`` binds it in the whole function)."""
    function = next((s for s in reversed(ctx.statements) if isinstance(s, cst.FunctionDef)), None)
    if function is None:
        return None  # at module or class level the name would outlive the loop
    code = ctx.code(function)
    return next((name for name in _NAMES if not re.search(rf"(?<![.\w]){name}\b", code)), None)


def _loop(line: cst.SimpleStatementLine, call: cst.Call, holder: cst.BaseExpression, name: str) -> cst.For:
    func = call.func
    assert isinstance(func, cst.Attribute)
    each = call.with_changes(func=func.with_changes(value=cst.Name(name)))
    body = cst.IndentedBlock([cst.SimpleStatementLine([cst.Expr(each)])])
    loggers = cst.Attribute(value=holder, attr=cst.Name("loggers"))
    return cst.For(target=cst.Name(name), iter=loggers, body=body, leading_lines=line.leading_lines).with_changes(
        whitespace_after_for=cst.SimpleWhitespace(" ")
    )


def _message(call: cst.Call, ctx: FileContext) -> str:
    return (
        f"{ctx.code(call.func)}: this project passes the Trainer a list of loggers; 1.5 called each of them, "
        "the target's trainer.logger is only the first (None for an empty list): call it on each of "
        "trainer.loggers"
    )


def leave_line(ctx: FileContext, original: cst.SimpleStatementLine, updated: Any) -> Any:
    if not ctx.options.logger_lists or len(original.body) != 1 or not isinstance(original.body[0], cst.Expr):
        return updated
    call = original.body[0].value
    if not isinstance(call, cst.Call) or _holder(ctx, call) is None:
        return updated
    small = updated.body[0] if isinstance(updated, cst.SimpleStatementLine) and len(updated.body) == 1 else None
    new = small.value if isinstance(small, cst.Expr) else None
    name = _fresh_name(ctx) if _calls_nothing(call) and isinstance(new, cst.Call) else None
    if name is None or not isinstance(new, cst.Call) or not isinstance(new.func, cst.Attribute):
        ctx.todo(ID, _message(call, ctx), original)
        return updated
    holder = new.func.value
    assert isinstance(holder, cst.Attribute)  # the ``<holder>.logger`` that ``_holder`` found
    ctx.fix(ID, f"{ctx.code(call.func)}(...) -> a call on each of {ctx.code(holder.value)}.loggers", original)
    return _loop(updated, new, holder.value, name)


def leave_call(ctx: FileContext, original: cst.Call, updated: cst.Call) -> Any:
    """A call the statement rewrite cannot take (inside an expression, a one-line ``if``): a TODO."""
    if not ctx.options.logger_lists or _holder(ctx, original) is None:
        return updated
    line = ctx.statements[-1] if ctx.statements else None
    whole = (
        isinstance(line, cst.SimpleStatementLine)
        and len(line.body) == 1
        and isinstance(line.body[0], cst.Expr)
        and line.body[0].value is original
    )
    if not whole:
        ctx.todo(ID, _message(original, ctx), original)
    return updated


def _visit() -> re.Pattern[str]:
    return re.compile(r"\.\s*logger\s*\.\s*(?:" + "|".join(sorted(BROADCAST)) + r")\s*\(")


RULE = Rule(
    id=ID,
    description="in a project that passes the Trainer a list of loggers, trainer.logger.<method>(...) becomes a "
    "call on each of trainer.loggers (1.5's LoggerCollection called them all), or is flagged",
    deprecated_in="1.6",
    handlers={"SimpleStatementLine": leave_line, "Call": leave_call},
    tokens=tuple(f".logger.{method}(" for method in sorted(BROADCAST)),
    visit=_visit,
)
