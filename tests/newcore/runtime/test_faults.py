"""The fault matrix (issue 12): every (launcher, fault) cell is a real job, with real processes over Gloo.

Each cell must end promptly (the bound says "does not hang", it is no benchmark), say which rank failed
and what happened, leave no process of the job behind, and have run the teardown of every rank that
was still able to run it. ``benchmarks/fault_matrix.py`` prints the same cells with their times.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.newcore.runtime._fault_matrix import CELLS, Cell, run_cell

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]

#: Generous: the slowest cells wait for a 2 s collective timeout or a 5 s SIGTERM grace, on 2 busy cores.
PROMPTLY = 30.0


@pytest.mark.parametrize("cell", [pytest.param(cell, id=cell.id) for cell in CELLS])
def test_fault_ends_the_job_promptly_and_cleanly(cell: Cell, tmp_path: Path) -> None:
    outcome = run_cell(cell, tmp_path)
    assert outcome.left == (), f"processes of the job left running: {outcome.left}\n{outcome.output}"
    assert outcome.seconds < PROMPTLY, outcome.output
    assert set(outcome.exit_codes) <= set(cell.exit_codes), (outcome.exit_codes, outcome.output)
    for expected in cell.expect:
        assert expected in outcome.output
    # Rank zero said what the process group waited for, once, while it formed.
    assert outcome.output.count("newcore: waiting for 2 processes at ") == 1, outcome.output
    if cell.torn_down is not None:
        assert outcome.torn_down == cell.torn_down, outcome.output
