"""A user's training script, run by the tests as ``python _script.py MODE STRATEGY DEVICES NUM_NODES OUT_DIR``.

The ``ddp`` family re-runs this very command for its other local ranks, as it would a user's script.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import torch

from newcore import Runner
from tests.newcore.runtime import _workers


def train_and_save(runner: Runner, out: str) -> None:
    result = _workers.train(runner)
    result["local_rank"], result["node_rank"] = runner.local_rank, runner.node_rank
    torch.save(result, Path(out, f"rank{runner.global_rank}.pt"))


if __name__ == "__main__":
    mode, strategy, devices, num_nodes, out = sys.argv[1:6]
    runner = Runner(accelerator="cpu", strategy=strategy, devices=int(devices), num_nodes=int(num_nodes))
    if mode == "train":
        runner.launch(train_and_save, out)
    else:  # "sleep": workers wait to be interrupted
        runner.launch(_workers.fail_on_rank_one if mode == "fail" else _workers.sleep, out)
