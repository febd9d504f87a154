"""single_device in this process: teardown exactly once, also on errors and through the context manager."""

from __future__ import annotations

import pytest
import torch

from newcore import MisconfigurationException, Runner
from tests.newcore.runtime import _workers


def _raise(runner: Runner) -> None:
    runner.setup(_workers.model())
    raise KeyError("boom")


def test_teardown_runs_once_even_when_the_function_raises() -> None:
    _workers.CountingCPU.teardowns = 0
    with Runner(accelerator=_workers.CountingCPU()) as runner, pytest.raises(KeyError, match="boom"):
        runner.launch(_raise)
    runner.teardown()
    assert _workers.CountingCPU.teardowns == 1


def test_single_device_trains_like_the_reference() -> None:
    result = Runner().launch(_workers.train)
    assert result["ranks"] == [0]
    for name, value in _workers.reference().items():
        torch.testing.assert_close(result["state"][name], value)


def test_spawned_strategies_refuse_setup_outside_launch() -> None:
    with pytest.raises(MisconfigurationException, match="inside the function given to"):
        Runner(accelerator="cpu", strategy="ddp_spawn", devices=2).setup(_workers.model())
