"""Train with a checkpoint at step ``SAVE_AT``, then resume from it in a fresh launch (run by test_resume.py).

Module-level functions, so that spawn can pickle them; also a script for strategies whose launcher
re-runs it: ``python _resume.py STRATEGY PHASE OUT_DIR`` writes rank zero's result to OUT_DIR.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import torch

from newcore import Runner
from newcore.strategies import DDPFullyShardedStrategy

STEPS, SAVE_AT = 4, 2


class Progress:
    """The user's own stateful object: a checkpoint holds it as its state dict."""

    def __init__(self) -> None:
        self.seen = 0

    def state_dict(self) -> dict[str, int]:
        return {"seen": self.seen}

    def load_state_dict(self, state: dict[str, int]) -> None:
        self.seen = state["seen"]


def _batch(runner: Runner, step: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Step ``step``'s global batch, this rank's slice of it: the data depends on the step alone."""
    generator = torch.Generator().manual_seed(100 + step)
    x, y = torch.randn(8, 4, generator=generator), torch.randn(8, 2, generator=generator)
    return x[runner.global_rank :: runner.world_size], y[runner.global_rank :: runner.world_size]


def run(runner: Runner, phase: str, directory: str) -> dict[str, Any]:
    """``through``: train ``STEPS`` steps, saving at ``SAVE_AT``; ``resume``: load that and train the rest."""
    # A different seed on resume: the weights can only match the uninterrupted run's through the checkpoint.
    torch.manual_seed(0 if phase == "through" else 1)
    net = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 2))
    if isinstance(runner.strategy, DDPFullyShardedStrategy):  # optimizers come after wrapping
        net = runner.setup(net)
        optimizer = runner.setup_optimizers(torch.optim.Adam(net.parameters(), lr=0.05))
    else:
        net, optimizer = runner.setup(net, torch.optim.Adam(net.parameters(), lr=0.05))
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.5)
    progress = Progress()
    path = Path(directory, "resume.ckpt")
    state: dict[str, Any] = {"model": net, "optimizer": optimizer, "scheduler": scheduler, "progress": progress}
    start = 0
    if phase == "resume":
        state["step"] = None
        rest = runner.load(path, state)
        assert rest == {"note": "not asked for"}, rest
        start = state["step"]
    for step in range(start, STEPS):
        if step == SAVE_AT and phase == "through":
            runner.save(path, {**state, "step": step, "note": "not asked for"})
        x, y = _batch(runner, step)
        runner.backward(torch.nn.functional.mse_loss(net(x), y))
        optimizer.step()
        optimizer.zero_grad()
        scheduler.step()
        progress.seen += 1
    return {
        "model": {k: v.detach().clone() for k, v in runner.strategy.module_state(net).items()},
        "optimizer": runner.strategy.optimizer_state(optimizer.optimizer),
        "lr": scheduler.get_last_lr(),
        "seen": progress.seen,
    }


def _run_and_write(runner: Runner, phase: str, directory: str) -> None:
    result = run(runner, phase, directory)
    if runner.is_global_zero:
        torch.save(result, Path(directory, f"{phase}.pt"))


#: Strategy names of the script that stand for a strategy object.
OBJECTS = {"fsdp-sharded": lambda: DDPFullyShardedStrategy(state_dict_type="sharded")}

if __name__ == "__main__":
    strategy, phase, out = sys.argv[1:4]
    chosen: Any = OBJECTS[strategy]() if strategy in OBJECTS else strategy
    Runner(accelerator="cpu", strategy=chosen, devices=2).launch(_run_and_write, phase, out)
