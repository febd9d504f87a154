"""The Runner's optimizer wrapper stays one optimizer with the one the strategy steps, also after loading state."""

from __future__ import annotations

import torch

from newcore import Runner


def _setup(runner: Runner) -> tuple[torch.nn.Module, torch.optim.Optimizer]:
    net = torch.nn.Linear(2, 1)
    model, optimizer = runner.setup(net, torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9))
    return model, optimizer


def test_loaded_state_reaches_the_stepped_optimizer() -> None:
    runner = Runner()

    def run(runner: Runner) -> None:
        model, optimizer = _setup(runner)
        model(torch.ones(1, 2)).sum().backward()
        optimizer.step()
        saved = optimizer.state_dict()
        saved["param_groups"][0]["lr"] = 0.5
        optimizer.load_state_dict(saved)
        inner = optimizer.optimizer
        assert inner.param_groups[0]["lr"] == 0.5
        assert optimizer.param_groups is inner.param_groups
        assert optimizer.state is inner.state
        before = [p.detach().clone() for p in model.parameters()]
        model(torch.ones(1, 2)).sum().backward()
        optimizer.step()
        assert any(not torch.equal(a, b) for a, b in zip(before, model.parameters(), strict=True))
        assert inner.param_groups[0]["lr"] == 0.5

    runner.launch(run)
