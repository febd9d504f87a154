"""``trainer.root_gpu`` as a ``torch.cuda`` function's device reads the same device as
``trainer.strategy.root_device.index`` (rule ``trainer_properties``), on the real releases.

For every recorded case that built a Trainer on 1.5.10 (tests/data/lightning-1.5.10.json) and, migrated, on 2.6.6
(tests/data/lightning-2.6.6-migrated.json) on a host with CUDA, 1.5's ``root_gpu`` and the index of 2.x's
``root_device`` name the same CUDA device once None is read as ``torch.cuda``'s "current device", which is device 0
before the Trainer moves anything. Hosts without CUDA are left out: there both ``torch.cuda`` calls raise.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).resolve().parents[1] / "data"
_INDEX = re.compile(r"\w+:(\d+)$")


@cache
def _cuda_cases() -> dict[str, tuple[Any, str]]:
    """Case id -> (1.5's root_gpu, 2.x's root_device) for the cases built on both releases on a CUDA host."""
    old = json.loads((DATA / "lightning-1.5.10.json").read_text(encoding="utf-8"))["results"]
    new = json.loads((DATA / "lightning-2.6.6-migrated.json").read_text(encoding="utf-8"))["results"]
    return {
        case_id: (record["selected"]["trainer"]["root_gpu"], new[case_id]["selected"]["root_device"])
        for case_id, record in sorted(old.items())
        if record.get("outcome") == "ok"
        and record["case"]["hardware"]["cuda"]
        and new.get(case_id, {}).get("outcome") == "ok"
    }


def _device(index: Any) -> int:
    """The CUDA device a ``torch.cuda`` function acts on for ``device=index`` (None: the current one, 0)."""
    return 0 if index is None else int(index)


def test_there_are_cases() -> None:
    assert len(_cuda_cases()) > 200  # 226 when written


@pytest.mark.parametrize("case_id", sorted(_cuda_cases()))
def test_root_gpu_names_the_root_device(case_id: str) -> None:
    root_gpu, root_device = _cuda_cases()[case_id]
    match = _INDEX.match(root_device)
    assert _device(root_gpu) == _device(match.group(1) if match else None), (root_gpu, root_device)
