"""Cases given as a JSON file instead of ``cases.py`` (``record.py/generate.py --cases-json FILE``).

Standard library only, like ``cases.py``: project tests import it without Lightning.

The file maps a case id (any non-empty string; the results are keyed by it) to an object::

    {"kwargs": {"accelerator": "gpu", "devices": 2, "strategy": {"__class__": "DDPStrategy"}},
     "hardware": {"cuda": 4},            # optional, missing keys take cases.hw() defaults (CPU)
     "env": {"SLURM_NTASKS": "2", ...},  # optional cluster environment variables
     "interactive": false}               # optional

Values use the encoding of ``cases.py``: instances as ``{"__class__": name, "args": [...], "kwargs": {...}}``,
devices as ``{"__device__": "cuda:0"}``. Other keys (say ``source`` or ``todos`` from the producer) are kept
verbatim in the recorded ``case``. An entry without ``kwargs`` but with ``unencodable`` (the producer could not
encode the call) is not recorded; it is listed in the header's ``not_recorded`` instead.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from case_machines import hw

INPUT_KEYS = frozenset({"kwargs", "hardware", "env", "interactive", "cluster"})


@dataclass(frozen=True)
class ExtraCase:
    """A case whose id is given (not derived), with the attributes ``record.py`` reads from ``cases.Case``."""

    id: str
    kwargs: dict[str, Any]
    hardware: dict[str, Any]
    env: dict[str, str] = field(default_factory=dict)
    interactive: bool = False
    cluster: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def group(self) -> str:
        return "extra"

    def as_dict(self) -> dict[str, Any]:
        """The ``case`` field of a result: the normalised inputs plus the producer's own keys."""
        out: dict[str, Any] = dict(self.extra)
        out.update(kwargs=self.kwargs, hardware=self.hardware, env=dict(sorted(self.env.items())))
        out["interactive"] = self.interactive
        if self.cluster:
            out["cluster"] = self.cluster
        return out


def parse(data: Any) -> tuple[list[ExtraCase], dict[str, str]]:
    """Validate a decoded cases file: the cases to record (sorted by id) and the ids left out, with why."""
    if not isinstance(data, dict):
        raise ValueError(f"a cases file holds one JSON object (case id -> case), not {type(data).__name__}")
    cases: list[ExtraCase] = []
    not_recorded: dict[str, str] = {}
    for case_id, entry in sorted(data.items()):
        where = f"case {case_id!r}"
        if not case_id:
            raise ValueError("a case id must be a non-empty string")
        if not isinstance(entry, dict):
            raise ValueError(f"{where}: expected an object, got {type(entry).__name__}")
        if "kwargs" not in entry:
            if "unencodable" in entry:
                not_recorded[case_id] = f"unencodable: {entry['unencodable']}"
                continue
            raise ValueError(f"{where}: 'kwargs' is required (or 'unencodable' to leave it out)")
        kwargs, hardware = entry["kwargs"], entry.get("hardware", {})
        env, interactive = entry.get("env") or {}, entry.get("interactive", False)
        if not isinstance(kwargs, dict):
            raise ValueError(f"{where}: 'kwargs' must be an object of Trainer keyword arguments")
        if not isinstance(hardware, dict):
            raise ValueError(f"{where}: 'hardware' must be an object like cases.hw() returns")
        try:
            full_hardware = hw(**hardware)
        except TypeError as error:
            raise ValueError(f"{where}: bad 'hardware' {hardware!r}: {error}") from None
        if not (isinstance(env, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in env.items())):
            raise ValueError(f"{where}: 'env' must map variable names to string values")
        if not isinstance(interactive, bool):
            raise ValueError(f"{where}: 'interactive' must be true or false")
        cluster = entry.get("cluster")
        extra = {k: v for k, v in entry.items() if k not in INPUT_KEYS}
        cases.append(ExtraCase(case_id, kwargs, full_hardware, dict(env), interactive, cluster, extra))
    return cases, not_recorded


def load(path: str | Path) -> tuple[list[ExtraCase], dict[str, str]]:
    """Read and validate a cases file (see the module docstring)."""
    return parse(json.loads(Path(path).read_text(encoding="utf-8")))
