"""Lightning's string enums (``DistributedType``, ``DeviceType``, ``AMPType``, ...), built from the renames table.

Members are ``str`` and compare equal to their string value case-insensitively (``DeviceType.GPU == "GPU"``
and ``== "gpu"``), as ``LightningEnum`` did. Reading a member from user code (``DistributedType.DDP``,
``DistributedType["DDP"]``, ``DistributedType("ddp")``) warns with the exact string to write instead;
compat's own use of the enums, and the ``enum`` module's machinery, do not.
"""

from __future__ import annotations

import functools
import sys
from enum import Enum, EnumMeta
from typing import Any

from compat._rows import ENUMS, compat_removed_in
from compat._warn import Notice, warn


def _frame_is_user(frame: Any) -> bool:
    name = frame.f_globals.get("__name__", "")
    return not any(name == p or name.startswith(p + ".") for p in ("compat", "enum"))


class _LegacyEnumMeta(EnumMeta):
    """Warns when user code reads a member; everything else is plain ``EnumMeta``."""

    def __getattribute__(cls, name: str) -> Any:
        value = super().__getattribute__(name)
        if isinstance(value, Enum) and not name.startswith("_") and _frame_is_user(sys._getframe(1)):
            _warn_member(value)
        return value

    def __getitem__(cls, name: str) -> Any:
        member: Any = super().__getitem__(name)
        if _frame_is_user(sys._getframe(1)):
            _warn_member(member)
        return member

    def __call__(cls, value: Any, *args: Any, **kwargs: Any) -> Any:
        if args or kwargs:  # the functional API creating a new enum, not a member lookup
            return super().__call__(value, *args, **kwargs)
        member: Any = super().__call__(value)
        if _frame_is_user(sys._getframe(1)):
            _warn_member(member)
        return member


class LegacyEnum(str, Enum, metaclass=_LegacyEnumMeta):
    """Base of compat's enums: a ``str`` that compares case-insensitively to its value."""

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, tuple[str, str]]:
        # Enum's own reduction calls ``DistributedType("ddp")`` from the unpickler, which warns as if the
        # user had written it: a worker receiving a member would repeat a warning of the parent.
        return _member, (type(self).__name__, self._value_)

    @classmethod
    def _missing_(cls, value: object) -> Any:
        # ``DeviceType("GPU")`` found the member in 1.5 whatever the case.
        if isinstance(value, str):
            for member in cls._member_map_.values():
                if member._value_.lower() == value.lower():
                    return member
        return None

    def __eq__(self, other: object) -> bool:
        other = other.value if isinstance(other, Enum) else other
        return isinstance(other, str) and self._value_.lower() == other.lower()

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self._value_.lower())

    def __str__(self) -> str:
        return str(self._value_)


#: Enum class name -> (qualified row name, deprecated in, Lightning removed in); first row of each name wins.
_ENUM_ROWS: dict[str, tuple[str, str, str]] = {}
for _qualified, (_dep, _rm, _members) in ENUMS.items():
    _ENUM_ROWS.setdefault(_qualified.rpartition(".")[2], (_qualified, _dep, _rm))


def _warn_member(member: Any) -> None:
    cls = type(member)
    _, deprecated_in, removed_in = _ENUM_ROWS[cls.__name__]
    warn(
        Notice(
            f"`{cls.__name__}.{member.name}`",
            f"the string {member._value_!r}",
            deprecated_in,
            compat_removed_in(removed_in),
            rule="enum_members",
        )
    )


@functools.cache
def _build(name: str) -> Any:
    qualified, _, _ = _ENUM_ROWS[name]
    members = ENUMS[qualified][2]
    # The functional API: one enum per table row, all sharing LegacyEnum's comparisons and warnings.
    factory: Any = LegacyEnum
    return factory(name, list(members.items()), module="compat.utilities.enums", qualname=name)


def _member(name: str, value: str) -> Any:
    """The member ``value`` of the enum ``name``, for unpickling (quietly: this frame is compat's)."""
    return _build(name)(value)


def enum_class(qualified: str) -> Any:
    """The enum for a row of the table (``"utilities.enums.DistributedType"`` or ``"utilities.DistributedType"``).

    Both paths return the same class, so members compare and hash alike whichever path imported them.
    """
    return _build(qualified.rpartition(".")[2])


def member_value(value: Any) -> Any:
    """A flag value with any enum member (compat's or another ``str`` enum) replaced by its string."""
    return value._value_ if isinstance(value, Enum) and isinstance(value._value_, str) else value
