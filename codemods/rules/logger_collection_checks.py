"""``if isinstance(trainer.logger, LoggerCollection): for logger in trainer.logger: ...`` -> ``if
len(trainer.loggers) > 1: for logger in trainer.loggers: ...``, where the statement before it finds the one logger
the same way: the "which of my loggers is the TensorBoard/W&B one" idiom.

1.5.10 wrapped ``Trainer(logger=[...])`` in a ``LoggerCollection`` (a list of one too), which iterates over its
loggers (``__getitem__`` over ``_logger_iterable``); 1.8 removed the class, and 2.x's ``trainer.logger`` (and a
LightningModule's ``self.logger``) is the first logger of ``trainer.loggers``, the one logger of a list of one. So
2.x never has a collection to test for, and the loop's list is ``.loggers``. The branch then runs for several
loggers, as in 1.5. For a list of one, 1.5 ran the loop over it and 2.x skips it: the rewrite is exact only where the
statement right before does to ``trainer.logger`` what the loop does to the logger it looks for, which 2.x then does
to the one logger:

    if isinstance(trainer.logger, WandbLogger):          tb = trainer.logger.experiment
        return trainer.logger                            if isinstance(trainer.logger, LoggerCollection):
    if isinstance(trainer.logger, LoggerCollection):         for logger in trainer.logger:
        for logger in trainer.logger:                            if isinstance(logger, TensorBoardLogger):
            if isinstance(logger, WandbLogger):                      tb = logger.experiment
                return logger                                        break

(the same class and the same attribute path on both sides). Anything else keeps the TODO of rule ``logger_base``;
the import of ``LoggerCollection`` goes with its last use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.plan.rule import Rule
from codemods.rules._hook_classes import project_base_of
from codemods.rules._member_receivers import trainer_or_module
from codemods.rules._trainer_kind import enclosing_class

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

ID = "logger_collection_checks"
_COLLECTIONS = frozenset(f"pytorch_lightning.loggers.{where}LoggerCollection" for where in ("", "base.", "logger."))


def _isinstance(node: cst.BaseExpression) -> tuple[cst.BaseExpression, cst.BaseExpression] | None:
    """(object, class) of ``isinstance(object, class)``."""
    if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "isinstance"):
        return None
    args = node.args
    if len(args) != 2 or any(arg.keyword is not None or arg.star for arg in args):
        return None
    return args[0].value, args[1].value


def _only(block: cst.BaseSuite) -> cst.CSTNode | None:
    """The one statement (small statement for a simple line) of ``block``."""
    statements = block.body
    if len(statements) != 1:
        return None
    statement = statements[0]
    if isinstance(block, cst.SimpleStatementSuite):
        return statement
    if isinstance(statement, cst.SimpleStatementLine):
        return statement.body[0] if len(statement.body) == 1 else None
    return statement


def _smalls(block: cst.BaseSuite) -> list[cst.CSTNode]:
    if isinstance(block, cst.SimpleStatementSuite):
        return list(block.body)
    found: list[cst.CSTNode] = []
    for statement in block.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            return []
        found.extend(statement.body)
    return found


def _path(node: cst.BaseExpression, root: str, ctx: FileContext) -> str | None:
    """``.experiment`` of ``<root>.experiment`` (``""`` for ``<root>`` itself); None when ``node`` is not on it."""
    code = ctx.code(node)
    if code == root:
        return ""
    return code[len(root) :] if code.startswith(root + ".") and code[len(root) + 1 :].isidentifier() else None


def _found(loop: cst.For, ctx: FileContext) -> tuple[str, str, str | None] | None:
    """(class code, attribute path, assigned name or None for a return) of the loop's ``if isinstance(v, C): return
    v<path>`` / ``if isinstance(v, C): name = v<path>; break``."""
    if not isinstance(loop.target, cst.Name) or loop.orelse is not None or loop.asynchronous is not None:
        return None
    variable = loop.target.value
    check = _only(loop.body)
    if not isinstance(check, cst.If) or check.orelse is not None:
        return None
    tested = _isinstance(check.test)
    if tested is None or not (isinstance(tested[0], cst.Name) and tested[0].value == variable):
        return None
    smalls = _smalls(check.body)
    if len(smalls) == 2 and isinstance(smalls[1], cst.Break):
        smalls = smalls[:1]
    if len(smalls) != 1:
        return None
    small = smalls[0]
    if isinstance(small, cst.Return) and small.value is not None:
        path = _path(small.value, variable, ctx)
        return None if path is None else (ctx.code(tested[1]), path, None)
    if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
        path = _path(small.value, variable, ctx)
        return None if path is None else (ctx.code(tested[1]), path, small.targets[0].target.value)
    return None


def _before(ctx: FileContext, node: cst.If) -> cst.CSTNode | None:
    """The statement right before ``node`` in its block."""
    parent = ctx.statements[-2] if len(ctx.statements) >= 2 else None
    blocks = [getattr(parent, "body", None)]
    orelse = getattr(parent, "orelse", None)
    if isinstance(orelse, cst.Else):
        blocks.append(orelse.body)
    for block in blocks:
        statements = list(getattr(block, "body", ()))
        for index, statement in enumerate(statements):
            if statement is node:
                return statements[index - 1] if index else None
    return None


def _handles_one(before: cst.CSTNode | None, logger: str, found: tuple[str, str, str | None], ctx: FileContext) -> bool:
    """Whether ``before`` does to ``<holder>.logger`` what the loop does to the logger it finds."""
    cls, path, name = found
    if name is None:  # if isinstance(trainer.logger, C): return trainer.logger<path>
        if not isinstance(before, cst.If) or before.orelse is not None:
            return False
        tested = _isinstance(before.test)
        returned = _only(before.body)
        return (
            tested is not None
            and ctx.code(tested[0]) == logger
            and ctx.code(tested[1]) == cls
            and isinstance(returned, cst.Return)
            and returned.value is not None
            and _path(returned.value, logger, ctx) == path
        )
    line = before if isinstance(before, cst.SimpleStatementLine) else None
    small = line.body[0] if line is not None and len(line.body) == 1 else None
    return (
        isinstance(small, cst.Assign)
        and len(small.targets) == 1
        and isinstance(small.targets[0].target, cst.Name)
        and small.targets[0].target.value == name
        and _path(small.value, logger, ctx) == path
    )


def _holder(ctx: FileContext, node: cst.If) -> cst.BaseExpression | None:
    """``trainer`` of the idiom ``node`` is (see the module docstring), a Trainer or a LightningModule; else None."""
    tested = _isinstance(node.test)
    if tested is None or node.orelse is not None or ctx.qualified_name(tested[1]) not in _COLLECTIONS:
        return None
    logger = tested[0]
    if not (isinstance(logger, cst.Attribute) and logger.attr.value == "logger"):
        return None
    holder = logger.value
    loop = _only(node.body)
    if not isinstance(loop, cst.For):
        return None
    iterated = ctx.code(loop.iter)
    code = ctx.code(logger)
    found = _found(loop, ctx)
    if iterated not in (code, f"{code}._logger_iterable") or found is None:
        return None
    if not _handles_one(_before(ctx, node), code, found, ctx):
        return None
    if trainer_or_module(ctx, holder):
        return holder
    # ``self`` of a class deriving from the project's own LightningModule (NeMo's ``SpectrogramGenerator``)
    owner = enclosing_class(ctx) if isinstance(holder, cst.Name) and holder.value == "self" else None
    through = project_base_of(ctx, owner) if owner is not None else None
    return holder if through is not None and through[0] == "LightningModule" else None


def visit_if(ctx: FileContext, node: cst.If, _: Any) -> None:
    if ctx.enabled(ID) and ctx.target >= (1, 8) and _holder(ctx, node) is not None:
        tested = _isinstance(node.test)
        assert tested is not None
        ctx.claimed.add(id(tested[1]))  # no TODO of rule logger_base on it: it goes


def leave_if(ctx: FileContext, original: cst.If, updated: cst.If) -> Any:
    tested = _isinstance(original.test)
    # claimed by :func:`visit_if`, which found the idiom: ``tested[0]`` is ``<holder>.logger``
    if tested is None or id(tested[1]) not in ctx.claimed or not isinstance(tested[0], cst.Attribute):
        return updated
    assert isinstance(updated.body, cst.IndentedBlock)
    holder = tested[0].value
    loggers = cst.Attribute(value=holder, attr=cst.Name("loggers"))
    test = cst.parse_expression(f"len({ctx.code(holder)}.loggers) > 1")
    loop = updated.body.body[0]
    assert isinstance(loop, cst.For)
    body = updated.body.with_changes(body=[loop.with_changes(iter=loggers), *updated.body.body[1:]])
    ctx.fix(
        ID,
        f"{ctx.code(original.test)} -> {ctx.code(test)}, and the loop over {ctx.code(holder)}.loggers "
        "(LoggerCollection is gone in 1.8: .logger is the first of several loggers, the one of a list of one)",
        original,
    )
    ctx.remove_imports_of(tested[1])
    return updated.with_changes(test=test, body=body)


RULE = Rule(
    id=ID,
    description="the isinstance(trainer.logger, LoggerCollection) loop that looks for one logger becomes a loop over "
    "trainer.loggers where the logger before it is looked at the same way",
    deprecated_in="1.8",
    handlers={"visit_If": visit_if, "If": leave_if},
    tokens=("LoggerCollection",),
)
