"""The lightning tier's parity: every 1.5.10 case, recorded again now through compat.lightning on the real 2.x.

``tools/reference/record_compat.py`` builds the real 2.x ``Trainer`` with each case's 1.5 flags, unchanged, on the
machine ``tools/reference/record.py`` fakes (one forked child per case after one ``install()``). The fresh recording
must equal the committed one (``tests/data/lightning-2.6.6-compat.json``, which the default suite judges without
Lightning), and each case is judged here too, by the same checks (``tests/parity/compat_lightning.py``): it selects
what 1.5.10 selected or raises the error of a feature 2.x removed (every other difference is listed with its
reason), and selects what the ``migrate-trainer`` rewrite of the call selects on the same 2.x, on every case.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.compat.lightning.conftest import require_lightning
from tests.parity import compat_lightning as cl

pytestmark = pytest.mark.lightning

ROOT = Path(__file__).resolve().parents[3]
RECORDER = ROOT / "tools" / "reference" / "record_compat.py"
#: The whole recording's budget on the 2-core CI machine (measured: see the recorder's stderr line).
BUDGET_S = 120
#: What a recording holds that depends on the shim (the case inputs are checked by the recorder itself).
COMPARED = ("outcome", "selected", "error", "phase", "warnings", "instance_warnings", "logs", "cluster_env")


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Every case recorded now, in this venv (one subprocess: the shim never touches this pytest process)."""
    require_lightning()  # a module fixture runs before the conftest's autouse skip
    out = tmp_path_factory.mktemp("compat-recording") / "compat.json"
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, str(RECORDER), "--out", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    elapsed = time.monotonic() - started
    assert done.returncode == 0, done.stderr[-6000:]
    data = dict(json.loads(out.read_text(encoding="utf-8")))
    data["elapsed_s"] = elapsed
    return data


def test_the_recording_takes_under_two_minutes(fresh: dict[str, Any]) -> None:
    assert fresh["elapsed_s"] < BUDGET_S, f"{fresh['elapsed_s']:.0f} s for {len(fresh['results'])} cases"


def test_the_committed_recording_is_current(fresh: dict[str, Any]) -> None:
    committed = cl.recording()["results"]
    stale = sorted(
        case_id
        for case_id in set(fresh["results"]) | set(committed)
        if {k: fresh["results"].get(case_id, {}).get(k) for k in COMPARED}
        != {k: committed.get(case_id, {}).get(k) for k in COMPARED}
    )
    assert not stale, f"{len(stale)} cases changed since the committed recording (first: {stale[0]!r}): {cl.RERECORD}"


@pytest.mark.parametrize("case_id", cl.case_ids())
def test_the_shim_selects_what_1_5_10_selected(fresh: dict[str, Any], case_id: str) -> None:
    record = fresh["results"][case_id]
    verdict = cl.versus_1_5(case_id, record)
    cl.check(cl.SUITE, case_id, verdict)
    if verdict.kind == "removed":
        cl.check_removed_message(record)


@pytest.mark.parametrize("case_id", cl.case_ids())
def test_the_shim_selects_what_the_migrated_code_selects(fresh: dict[str, Any], case_id: str) -> None:
    verdict = cl.versus_migrated(case_id, fresh["results"][case_id])
    assert verdict.kind == "same", f"the shim and the rewrite differ: {verdict.diff}"
