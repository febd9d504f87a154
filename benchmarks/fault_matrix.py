"""The Runner's fault matrix, measured: each (launcher, fault) cell of ``tests/newcore/runtime`` run once.

    python benchmarks/fault_matrix.py [--only script] [--repeat 1]

For each cell: the outcome (``ok`` if it met every expectation of ``test_faults.py``: the error names the
rank and what happened, the exit status says which signal, no process of the job left, teardown where the
process could run it; else what failed), seconds from the fault until the last process of the job had
exited (the median over ``--repeat`` runs; the hang cells include their 2 s ``Runner(timeout=...)``, the
blocked cells the launcher's 5 s grace before SIGKILL), and the processes left. Prints a markdown table.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.newcore.runtime._fault_matrix import CELLS, Cell, Outcome, run_cell  # noqa: E402

WAITING = "newcore: waiting for 2 processes at "


def verdict(cell: Cell, outcome: Outcome) -> str:
    """``ok``, or the first expectation of the test that the outcome misses."""
    if outcome.left:
        return f"{len(outcome.left)} process(es) left"
    if not set(outcome.exit_codes) <= set(cell.exit_codes):
        return f"exit {outcome.exit_codes}"
    missing = [text for text in (*cell.expect, WAITING) if text not in outcome.output]
    if missing:
        return f"output lacks {missing[0]!r}"
    if cell.torn_down is not None and outcome.torn_down != cell.torn_down:
        return f"teardown on ranks {list(outcome.torn_down)}"
    return "ok"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="run only the cells of this launcher (script, spawn, fork, torchrun, slurm)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per cell; the time is their median")
    args = parser.parse_args(argv)
    cells = [cell for cell in CELLS if args.only in (None, cell.launcher)]
    print("| launcher | fault | outcome | seconds until the job ended | exit status | teardown ran on | left |")
    print("|---|---|---|---:|---|---|---:|")
    failures = 0
    for cell in cells:
        outcomes = []
        for _ in range(args.repeat):
            with tempfile.TemporaryDirectory(prefix="fault-matrix-") as out:
                outcomes.append(run_cell(cell, Path(out)))
        verdicts = sorted({verdict(cell, outcome) for outcome in outcomes}, key=lambda v: v != "ok")
        failures += any(v != "ok" for v in verdicts)
        seconds = statistics.median(outcome.seconds for outcome in outcomes)
        last = outcomes[-1]
        codes = ", ".join(str(code) for code in last.exit_codes)
        ranks = ", ".join(map(str, last.torn_down)) or "none"
        print(
            f"| {cell.launcher} | {cell.fault} | {' / '.join(verdicts)} | {seconds:.1f} | {codes} | {ranks}"
            f" | {max(len(outcome.left) for outcome in outcomes)} |",
            flush=True,
        )
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
