"""A script written the Fabric way, ``launch()`` with no function: ``python _fabric_style.py MODE OUT_DIR``.

Rank 0 re-runs this command for rank 1; both return from ``launch()`` and run the code below it. MODE:

- ``with``: train inside ``with runner:``; ``teardown``: train, then ``runner.teardown()``;
  ``no-teardown``: train and let the script end (the launch ends at exit);
- ``raise``: rank 1 raises inside ``with runner:`` while rank 0 sleeps; ``raise-uncaught``: the same
  without ``with`` (nothing catches it).

Each rank writes ``rank<N>.pt`` (what it computed) and ``pid-<N>-<pid>`` to OUT_DIR.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import torch

from newcore import Runner
from tests.newcore.runtime import _workers


def work(runner: Runner, mode: str, out: str) -> None:
    rank = runner.global_rank
    Path(out, f"pid-{rank}-{os.getpid()}").touch()
    if mode.startswith("raise"):
        if rank == 1:
            runner.barrier()
            raise ValueError("rank 1 failed on purpose")
        runner.barrier()
        time.sleep(60)
    result = _workers.train(runner)
    result["sum"] = runner.all_reduce(torch.tensor([rank + 1.0]), reduce_op="sum").item()
    result["local_rank"] = runner.local_rank
    torch.save(result, Path(out, f"rank{rank}.pt"))


if __name__ == "__main__":
    mode, out = sys.argv[1:3]
    runner = Runner(strategy="ddp", accelerator="cpu", devices=2)
    runner.launch()
    scope = runner if mode in ("with", "raise") else contextlib.nullcontext()
    with scope:
        work(runner, mode, out)
    if mode == "teardown":
        runner.teardown()
