"""Trains a tiny model through ``Runner(strategy="horovod")``; run it under ``horovodrun -np 2 --gloo``.

Each rank writes ``rank<N>.json`` into the folder given as the only argument: its ranks, the
weights before and after training, the collectives' results and a checkpoint round-trip. The test
compares them with a single-process reference built from the same definitions (imported from this
module, which imports neither horovod nor newcore at module level).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import torch

STEPS = 5
LR = 0.1
#: Rank r starts from torch.manual_seed(INIT_SEED + r): different weights, so broadcasting rank 0's shows.
INIT_SEED = 100


def make_model() -> torch.nn.Module:
    return torch.nn.Linear(4, 1)


def shard(rank: int) -> tuple[torch.Tensor, torch.Tensor]:
    """This rank's 8 samples: different on each rank, so only all-reduced gradients keep the ranks equal."""
    generator = torch.Generator().manual_seed(rank)
    x = torch.randn(8, 4, generator=generator)
    return x, x.sum(dim=1, keepdim=True) + 0.1 * torch.randn(8, 1, generator=generator)


def weights(model: torch.nn.Module) -> list[float]:
    return [round(float(v), 7) for p in model.parameters() for v in p.detach().cpu().flatten()]


def train(runner: Any, out: Path) -> None:
    rank = runner.global_rank
    torch.manual_seed(INIT_SEED + rank)
    model = make_model()
    model, optimizer = runner.setup(model, torch.optim.SGD(model.parameters(), lr=LR))
    initial = weights(model)
    x, y = runner.to_device(shard(rank))
    for _ in range(STEPS):
        optimizer.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x), y)
        runner.backward(loss)
        optimizer.step()
    runner.save(out / "model.ckpt", {"model": model, "step": STEPS})
    loaded = runner.load(out / "model.ckpt")
    report = {
        "rank": rank,
        "local_rank": runner.local_rank,
        "world_size": runner.world_size,
        "device": str(runner.device),
        "lr": optimizer.param_groups[0]["lr"],
        "initial": initial,
        "final": weights(model),
        "loaded": [round(float(v), 7) for t in loaded["model"].values() for v in t.flatten()],
        "loaded_step": loaded["step"],
        "sum": runner.all_reduce(torch.tensor([rank + 1.0]), reduce_op="sum").tolist(),
        "mean": runner.all_reduce(torch.tensor([rank + 1.0])).tolist(),
        "gather": runner.all_gather(torch.tensor([rank, 10 * rank])).tolist(),
        "broadcast": runner.broadcast({"from": rank}, src=1),
        "all_true": runner.strategy.reduce_boolean_decision(True),
        "rank0_true": runner.strategy.reduce_boolean_decision(rank == 0),
        "any_rank0_true": runner.strategy.reduce_boolean_decision(rank == 0, all=False),
        "sampler": runner.strategy.distributed_sampler_kwargs,
        "strategy": type(runner.strategy).__name__,
    }
    runner.barrier("report")
    (out / f"rank{rank}.json").write_text(json.dumps(report))


def main() -> None:
    from newcore.runner import Runner

    runner = Runner(strategy="horovod")
    runner.launch(train, Path(sys.argv[1]))
    # launch tore the strategy down; a second teardown must be a no-op (no second join, no error).
    runner.teardown()


if __name__ == "__main__":
    main()
