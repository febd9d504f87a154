"""Deprecated Trainer properties -> their replacements (``trainer.training_type_plugin`` -> ``trainer.strategy``).

Most were deprecated in Lightning 1.6 and removed in 1.8 (see ``TRAINER_PROPERTIES`` in the renames table).
Only attribute accesses on something that is provably or conventionally a Trainer are touched: ``trainer``,
``self.trainer``, ``pl_module.trainer``, ``*_trainer`` or a variable assigned from ``Trainer(...)`` -- never
``self.gpus`` on a user's class. Replacements that differ on some machines (``num_gpus`` was 0 on CPU) are
rewritten and flagged; properties without a replacement get a TODO.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.renames import TRAINER_PROPERTIES, TrainerProperty, version_tuple
from codemods.rules._base import Rule

if TYPE_CHECKING:
    from codemods.engine import FileContext

ID = "trainer_properties"
_BY_NAME: dict[str, TrainerProperty] = {prop.old: prop for prop in TRAINER_PROPERTIES if "." not in prop.old}
_NESTED: dict[str, TrainerProperty] = {prop.old: prop for prop in TRAINER_PROPERTIES if "." in prop.old}
_TRAINERISH = re.compile(r"(^|_)trainer$", re.IGNORECASE)


def _is_trainer(ctx: FileContext, node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.Name):
        return bool(_TRAINERISH.search(node.value)) or node.value in ctx.trainer_vars
    if isinstance(node, cst.Attribute):
        return bool(_TRAINERISH.search(node.attr.value))
    return False


def _chain(base: cst.BaseExpression, dotted: str) -> cst.BaseExpression:
    for part in dotted.split("."):
        base = cst.Attribute(value=base, attr=cst.Name(part))
    return base


def leave_attribute(ctx: FileContext, original: cst.Attribute, updated: cst.Attribute) -> Any:
    attr = original.attr.value
    prop: TrainerProperty | None = None
    receiver: cst.BaseExpression | None = None
    if (
        isinstance(original.value, cst.Attribute)
        and f"{original.value.attr.value}.{attr}" in _NESTED
        and _is_trainer(ctx, original.value.value)
        and isinstance(updated.value, cst.Attribute)
    ):
        prop, receiver = _NESTED[f"{original.value.attr.value}.{attr}"], updated.value.value
    elif attr in _BY_NAME and _is_trainer(ctx, original.value):
        prop, receiver = _BY_NAME[attr], updated.value
    if prop is None or receiver is None or version_tuple(prop.deprecated_in) > ctx.target:
        return updated
    if prop.new is None:
        ctx.todo(ID, f"Trainer.{prop.old} is deprecated in {prop.deprecated_in}: {prop.note}", original)
        return updated
    if prop.exact:
        ctx.fix(ID, f"Trainer.{prop.old} -> Trainer.{prop.new}", original)
    else:
        ctx.fix(ID, f"Trainer.{prop.old} -> Trainer.{prop.new}", original)
        ctx.todo(ID, f"Trainer.{prop.old} became Trainer.{prop.new}; check the value: {prop.note}", original)
    return _chain(receiver, prop.new)


RULE = Rule(
    id=ID,
    description="deprecated Trainer properties (training_type_plugin, num_gpus, root_gpu, ...) are replaced",
    deprecated_in="1.6",
    handlers={"Attribute": leave_attribute},
    tokens=tuple(sorted({prop.old.rsplit(".", 1)[-1] for prop in TRAINER_PROPERTIES})),
)
