"""The flag matrix recorded against real Lightning releases, as plain data.

Standard library only: ``record.py`` imports it inside the reference venvs, and project tests
may import it to read the case descriptions next to ``tests/data/lightning-*.json``.

A case is: Trainer keyword arguments (JSON values; instances are written as
``{"__class__": "DDPPlugin", "kwargs": {...}}`` and built inside the recording child; devices as
``{"__device__": "cuda:1"}``), the faked hardware, the cluster environment variables, and the
interactive flag. Case ids are derived from those fields, read like a spec
(``"strategy: gpus=2, strategy='ddp' | cuda=4"``) and are unique; the order of ``all_cases()`` is
the order of the matrix's sections, so regenerating gives a clean diff.

The pieces: ``case_machines.py`` (hardware, clusters), ``case_model.py`` (the JSON encoding, ``Case``, ``add()``,
``BASE_KWARGS``) and the matrix, numbered sections in ``cases_devices.py``, ``cases_strategies.py``,
``cases_precision.py``, ``cases_processes.py`` and ``cases_invalid.py``, each importing the one before it.
This module is ``all_cases()``; ``python tools/reference/cases.py`` prints the counts per group.
"""

from __future__ import annotations

import json

import cases_invalid  # noqa: F401  (the last section of the matrix: importing it adds every case, in order)
from case_model import _CASES, Case


def all_cases() -> list[Case]:
    """Every case, in recording order; ids are checked unique."""
    seen: dict[str, Case] = {}
    for case in _CASES:
        if case.id in seen:
            raise ValueError(f"duplicate case id: {case.id}")
        json.dumps(case.as_dict())  # JSON-able by construction
        seen[case.id] = case
    return list(seen.values())


if __name__ == "__main__":
    cases = all_cases()
    groups: dict[str, int] = {}
    for c in cases:
        groups[c.group] = groups.get(c.group, 0) + 1
    print(f"{len(cases)} cases: " + ", ".join(f"{g}={n}" for g, n in groups.items()))
