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
    """A call of a project class named like a Trainer that is none (``Options.plain_trainers``)."""
    parts = _dotted(value.func) if isinstance(value, ast.Call) else []
    return bool(parts) and parts[0] in ctx.options.plain_trainers


def _owned_trainer(value: ast.expr) -> bool:
    """``self.trainer``, ``pl_module.trainer``."""
    return (
        isinstance(value, ast.Attribute)
        and bool(_TRAINERISH.search(value.attr))
        and isinstance(value.value, ast.Name)
        and value.value.id in _OWNERS
    )


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
        return True if isinstance(owner, cst.Name) and owner.value in _OWNERS else None
    return False  # ``conf["trainer"].devices``, ``make().trainer``: not provably a Trainer
