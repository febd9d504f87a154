"""The outputs ``on_train_batch_end`` and ``training_epoch_end`` get with several optimizers have 1.5's shapes,
squeezes included. The expected values are what 1.5.10's own ``TrainingEpochLoop._prepare_outputs_training_batch_end``
and ``_prepare_outputs_training_epoch_end`` returned for the same per-batch outputs (run in the 1.5.10 venv)."""

from __future__ import annotations

from typing import Any

import pytest

from compat.lightning._optimizer_outputs import BatchOutput, batch_end_outputs, epoch_end_outputs


def _out(name: str) -> dict[str, Any]:
    return {"loss": name}


A0, A1, A2, B0, B1, B2, C0, C1 = (_out(name) for name in ("a0", "a1", "a2", "b0", "b1", "b2", "c0", "c1"))

ROWS = [
    pytest.param(
        2,
        [{0: A0, 1: B0}, {0: A1, 1: B1}],
        [[A0, B0], [A1, B1]],
        [[A0, A1], [B0, B1]],
        id="two optimizers, two batches: a list per optimizer",
    ),
    pytest.param(2, [{0: A0, 1: B0}], [[A0, B0]], [A0, B0], id="one batch of two optimizers is squeezed flat"),
    pytest.param(
        2,
        [{0: A0}, {1: B1}, {1: B2}],
        [[A0], [B1], [B2]],
        [[A0], [B1, B2]],
        id="frequencies: each batch lists only the optimizer that ran",
    ),
    pytest.param(
        2,
        [{0: A0, 1: B0}, {}, {0: A2}],
        [[A0, B0], [], [A2]],
        [[A0, A2], [B0]],
        id="a batch every optimizer skipped gives the batch hook an empty list",
    ),
    pytest.param(2, [{0: A0}, {0: A1}], [[A0], [A1]], [[A0, A1]], id="an optimizer that never stepped has no list"),
    pytest.param(2, [{}, {}], [[], []], [], id="every batch skipped: nothing"),
    pytest.param(
        3,
        [{0: A0, 1: B0, 2: C0}, {0: A1, 2: C1}],
        [[A0, B0, C0], [A1, C1]],
        [[A0, A1], [B0], [C0, C1]],
        id="three optimizers, the second skipping a batch",
    ),
]


@pytest.mark.parametrize(("optimizers", "batches", "batch_ends", "epoch_end"), ROWS)
def test_outputs_have_1_5_shapes(
    optimizers: int, batches: list[BatchOutput], batch_ends: list[Any], epoch_end: Any
) -> None:
    assert [batch_end_outputs(batch, optimizers) for batch in batches] == batch_ends
    assert epoch_end_outputs(batches, optimizers) == epoch_end
