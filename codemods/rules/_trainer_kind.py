"""Whether an expression is a Lightning Trainer, for the rules that touch a Trainer's attributes.

Known where the code shows it: a ``trainer`` (or ``*_trainer``) parameter, ``self.trainer``/``pl_module.trainer``,
a variable assigned from ``Trainer(...)`` or ``build_trainer(...)``; never a config node (``cfg.trainer.devices``,
``self.hparams.trainer.gpus``) and never an instance of a project class named like a Trainer whose whole ancestry is
the project's own (``Options.plain_trainers``: mmf's ``LightningTrainerMock(config)``).
"""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING

import libcst as cst

from codemods.frontends.python.qualnames import assigned_values, is_parameter

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

_TRAINERISH = re.compile(r"(^|_)trainer$", re.IGNORECASE)
#: ``<owner>.trainer`` is a Trainer for these owners (a LightningModule or Callback method's ``self``, the
#: ``pl_module`` a callback hook receives, ...).
_OWNERS = frozenset({"self", "pl_module", "module", "model", "lightning_module"})
#: Names of configuration objects: ``cfg.trainer.devices`` is a config key, never a Trainer property.
_CONFIGS = re.compile(
    r"(^|_)(cfg|cfgs|conf|config|configs|args|hparams|hparam|hp|hps|params|opt|opts|options|settings|hydra)$",
    re.IGNORECASE,
)


def _configish(node: cst.BaseExpression) -> bool:
    """``cfg``, ``self.hparams``, ``args.model``, ``conf["x"]``: something that reads like configuration."""
    while True:
        if isinstance(node, cst.Name):
            return bool(_CONFIGS.search(node.value))
        if isinstance(node, cst.Attribute):
            if _CONFIGS.search(node.attr.value):
                return True
            node = node.value
        elif isinstance(node, cst.Subscript | cst.Call):
            node = node.value if isinstance(node, cst.Subscript) else node.func
        else:
            return False


def _dotted(node: ast.expr) -> list[str]:
    parts: list[str] = []
    while isinstance(node, ast.Attribute | ast.Subscript | ast.Call):
        if isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        else:
            node = node.value if isinstance(node, ast.Subscript) else node.func
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return parts


def _configish_value(value: ast.expr) -> bool:
    """``cfg.trainer``, ``config["trainer"]``, ``self.hparams.trainer``: a value read from configuration."""
    if isinstance(value, ast.Call):
        return False
    return any(_CONFIGS.search(part) for part in _dotted(value))


def _trainer_call(value: ast.expr) -> bool:
    """``Trainer(...)``, ``build_trainer(...)``, ``pl.Trainer.from_argparse_args(...)``: a call that makes one."""
    return isinstance(value, ast.Call) and any("trainer" in part.lower() for part in _dotted(value.func))


def _plain_call(ctx: FileContext, value: ast.expr) -> bool:
    """A call of a project class named like a Trainer that is none (``Options.plain_trainers``), or of the project's
    LightningModule (ReAgent's ``LinUCBTrainer``, ``Options.hook_classes``)."""
    parts = _dotted(value.func) if isinstance(value, ast.Call) else []
    return bool(parts) and _no_trainer_class(ctx, parts[0])


def _no_trainer_class(ctx: FileContext, name: str) -> bool:
    return name in ctx.options.plain_trainers or any(cls == name for cls, _ in ctx.options.hook_classes)


def _owned_trainer(value: ast.expr) -> bool:
    """``self.trainer``, ``pl_module.trainer``."""
    return (
        isinstance(value, ast.Attribute)
        and bool(_TRAINERISH.search(value.attr))
        and isinstance(value.value, ast.Name)
        and value.value.id in _OWNERS
    )


def enclosing_class(ctx: FileContext) -> cst.ClassDef | None:
    """The class whose method is being visited, when ``self`` is that method's first parameter."""
    statements = ctx.statements
    for index in range(len(statements) - 1, 0, -1):
        function = statements[index]
        if isinstance(function, cst.FunctionDef):
            cls = statements[index - 1]
            params = function.params.params
            first = params[0].name.value if params else None
            return cls if isinstance(cls, cst.ClassDef) and first == "self" else None
    return None


def _set_on_self(cls: cst.ClassDef, attr: str) -> list[cst.BaseExpression]:
    """The values the class's methods assign to ``self.<attr>`` in their own bodies (``self.trainer = X(...)``)."""
    found: list[cst.BaseExpression] = []
    for method in cls.body.body:
        if not (isinstance(method, cst.FunctionDef) and isinstance(method.body, cst.IndentedBlock)):
            continue
        for line in method.body.body:
            for small in line.body if isinstance(line, cst.SimpleStatementLine) else ():
                if not (isinstance(small, cst.Assign) and len(small.targets) == 1):
                    continue
                target = small.targets[0].target
                on_self = isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name)
                if on_self and target.value.value == "self" and target.attr.value == attr:  # type: ignore[attr-defined]
                    found.append(small.value)
    return found


def _made_by_no_trainer(ctx: FileContext, value: cst.BaseExpression) -> bool:
    """``LinUCBTrainer(...)`` where that class is the project's LightningModule (``Options.hook_classes``) or a
    class named like a Trainer that is none (``Options.plain_trainers``)."""
    func = value.func if isinstance(value, cst.Call) else None
    name = func.value if isinstance(func, cst.Name) else func.attr.value if isinstance(func, cst.Attribute) else None
    return name is not None and _no_trainer_class(ctx, name)


def trainer_kind(ctx: FileContext, node: cst.BaseExpression) -> bool | None:
    """True when ``node`` is a Trainer, False when it is not (or is configuration), None when it may be."""
    if isinstance(node, cst.Name):
        if node.value in ctx.trainer_vars:
            return True
        if not _TRAINERISH.search(node.value):
            return False
        if is_parameter(node.value, ctx.scopes):
            return True
        values = assigned_values(node.value, ctx.scopes)
        if values and any(_configish_value(value) for value in values):
            return False  # ``trainer = cfg.trainer``
        if values and any(_plain_call(ctx, value) for value in values):
            return False  # ``trainer = LightningTrainerMock(config)``: a project class that is no Trainer
        if values and all(_trainer_call(value) or _owned_trainer(value) for value in values):
            return True  # ``trainer = build_trainer(args)``, ``trainer = self.trainer``
        return None
    if isinstance(node, cst.Attribute):
        if not _TRAINERISH.search(node.attr.value) or _configish(node.value):
            return False
        owner = node.value
        if isinstance(owner, cst.Name) and owner.value == "self" and (cls := enclosing_class(ctx)) is not None:
            made = _set_on_self(cls, node.attr.value)
            if made and all(_made_by_no_trainer(ctx, value) for value in made):
                return False  # ReAgent's tests: self.trainer = LinUCBTrainer(...), a LightningModule
        return True if isinstance(owner, cst.Name) and owner.value in _OWNERS else None
    return False  # ``conf["trainer"].devices``, ``make().trainer``: not provably a Trainer
