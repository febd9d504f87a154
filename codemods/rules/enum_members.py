"""``DistributedType.DDP`` / ``DeviceType.GPU`` / ``AMPType`` / ``PrecisionType`` members -> their string values.

``DistributedType`` and ``DeviceType`` were deprecated in Lightning 1.6 (#10505, #10503; "Use the string value
... instead") and removed in 1.8; ``AMPType`` and ``PrecisionType`` were deprecated in 1.9. The enums were
``str`` subclasses, so the string is a faithful replacement (``DeviceType`` becomes lower case, the spelling
the new flags use; the enum compared case-insensitively). ``.value`` and ``.name`` on a member are folded in,
with their exact 1.5 strings. Any other use
of the enum class (a call, ``isinstance``, an annotation) gets a TODO.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import libcst as cst

from codemods.plan.resolve import split_root
from codemods.plan.rule import Rule
from legacy_api.renames import COMPAT, ENUM_MEMBERS, version_tuple

if TYPE_CHECKING:
    from codemods.frontends.python.context import FileContext

ID = "enum_members"
#: Enums whose member values were the upper-case member names (``DeviceType.GPU.value == "GPU"``).
_UPPER_VALUES = frozenset({"DeviceType"})


def _enum(ctx: FileContext, name: str) -> tuple[str, str, dict[str, str]] | None:
    split = split_root(name)
    if split is None or split[1] not in ENUM_MEMBERS:
        return None
    deprecated_in, removed_in, members = ENUM_MEMBERS[split[1]]
    if split[0] != COMPAT and version_tuple(deprecated_in) > ctx.target:
        return None
    return deprecated_in, removed_in, members


def _member_value(ctx: FileContext, node: cst.CSTNode) -> str | None:
    for name in ctx.legacy_names(node):
        enum, _, member = name.rpartition(".")
        found = _enum(ctx, enum)
        if found is not None and member in found[2]:
            return found[2][member]
    return None


def _string(value: str) -> cst.SimpleString:
    return cst.SimpleString(f'"{value}"')


def visit_attribute(ctx: FileContext, original: cst.Attribute, _: Any) -> None:
    if _member_value(ctx, original) is not None:
        base = original.value
        ctx.claimed.add(id(base))


def leave_attribute(ctx: FileContext, original: cst.Attribute, updated: cst.Attribute) -> Any:
    if ctx.in_import:
        return updated
    if original.attr.value in ("value", "name") and isinstance(updated.value, cst.SimpleString):
        inner = original.value
        if _member_value(ctx, inner) is not None and isinstance(inner, cst.Attribute):
            # ``.name`` is the member's name; ``.value`` its exact 1.5 value (upper case for DeviceType, whose
            # members compared case-insensitively but whose ``.value`` was a plain "GPU").
            name = inner.attr.value
            enum = ctx.legacy_names(inner)[0].rpartition(".")[0].rpartition(".")[2]
            exact = name if original.attr.value == "name" or enum in _UPPER_VALUES else updated.value.evaluated_value
            ctx.pending = [item for item in ctx.pending if item.node is not inner]  # one finding, the outer one
            ctx.fix(ID, f"{ctx.code(original)} is the string {exact!r}", original)
            return _string(str(exact))
    value = _member_value(ctx, original)
    if value is None:
        return updated
    ctx.fix(ID, f"{ctx.code(original)} is the string {value!r}", original)
    ctx.remove_imports_of(original)
    return _string(value)


def leave_name(ctx: FileContext, original: cst.Name, updated: cst.Name) -> Any:
    if ctx.in_import or id(original) in ctx.claimed:
        return updated
    for name in ctx.legacy_names(original):
        found = _enum(ctx, name)
        if found is not None:
            ctx.todo(
                ID, f"{name.rpartition('.')[2]} is deprecated in {found[0]}: compare with its string values", original
            )
    return updated


RULE = Rule(
    id=ID,
    description="DistributedType/DeviceType/AMPType/PrecisionType members become their string values",
    deprecated_in="1.6",
    handlers={"visit_Attribute": visit_attribute, "Attribute": leave_attribute, "Name": leave_name},
    tokens=("DistributedType", "DeviceType", "AMPType", "PrecisionType"),
)
