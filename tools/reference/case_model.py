"""What a case is: the ``Trainer`` keyword arguments as JSON values, the ``Case`` with its derived id, ``add()``.

Standard library only. ``add()`` appends to ``_CASES``; the matrix modules (``cases_devices.py`` to
``cases_invalid.py``) call it at import, and ``cases.all_cases()`` returns the list in that order. ``BASE_KWARGS``
go to every ``Trainer``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from case_machines import CPU, hw_label

# Passed to every Trainer; only quiet the parts that are not about device selection.
BASE_KWARGS: dict[str, Any] = {
    "logger": False,
    "enable_checkpointing": False,
    "enable_progress_bar": False,
    "enable_model_summary": False,
    "max_epochs": 1,  # 1.6 warns when it is unset
}


# --------------------------------------------------------------------------------------------
# instances and devices, as JSON
# --------------------------------------------------------------------------------------------


def obj(cls: str, *args: Any, **kwargs: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"__class__": cls}
    if args:
        out["args"] = list(args)
    if kwargs:
        out["kwargs"] = kwargs
    return out


def dev(spec: str) -> dict[str, str]:
    return {"__device__": spec}


def fmt(value: Any) -> str:
    """Python-like rendering used in case ids."""
    if isinstance(value, dict) and "__class__" in value:
        inner = [fmt(a) for a in value.get("args", [])]
        inner += [f"{k}={fmt(v)}" for k, v in value.get("kwargs", {}).items()]
        return f"{value['__class__']}({', '.join(inner)})"
    if isinstance(value, dict) and "__device__" in value:
        return f"device({value['__device__']!r})"
    if isinstance(value, list):
        return "[" + ", ".join(fmt(v) for v in value) + "]"
    return repr(value)


# --------------------------------------------------------------------------------------------
# cases
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    group: str
    kwargs: dict[str, Any]
    hardware: dict[str, Any] = field(default_factory=lambda: dict(CPU))
    cluster: str | None = None
    env: dict[str, str] = field(default_factory=dict)
    interactive: bool = False
    note: str | None = None

    @property
    def id(self) -> str:
        flags = ", ".join(f"{k}={fmt(v)}" for k, v in self.kwargs.items()) or "(no flags)"
        parts = [f"{self.group}: {flags}", hw_label(self.hardware)]
        if self.cluster:
            parts.append(self.cluster)
        if self.interactive:
            parts.append("interactive")
        return " | ".join(parts)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "group": self.group,
            "kwargs": self.kwargs,
            "hardware": self.hardware,
            "interactive": self.interactive,
        }
        if self.cluster:
            out["cluster"] = self.cluster
            out["env"] = {k: v for k, v in sorted(self.env.items())}
        if "distributed_backend" in self.kwargs:
            out["legacy_mapping"] = (
                "distributed_backend was removed in 1.5 (#10017); recorded with 1.4 semantics:"
                " passed to the Trainer as accelerator=<value>"
            )
        if self.note:
            out["note"] = self.note
        return out


_CASES: list[Case] = []


def add(
    group: str,
    hardware: dict[str, Any] = CPU,
    cluster: str | None = None,
    env: dict[str, str] | None = None,
    interactive: bool = False,
    note: str | None = None,
    **kwargs: Any,
) -> None:
    _CASES.append(Case(group, kwargs, dict(hardware), cluster, dict(env or {}), interactive, note))
