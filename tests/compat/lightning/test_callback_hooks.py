"""A Callback whose training batch hooks take ``dataloader_idx`` (1.5 passed 0) runs on the real 2.x, warning once a
callback class; the callback is exactly as before after the run."""

from __future__ import annotations

import warnings
from typing import Any

from compat._warn import CompatDeprecationWarning


def test_training_batch_hooks_get_dataloader_idx_0(shim: Any) -> None:
    import pytorch_lightning as pl

    from tests.compat.lightning.tiny import FAST, Tiny, loader

    class Legacy(pl.Callback):
        def __init__(self) -> None:
            self.seen: list[tuple[str, int]] = []

        def on_train_batch_start(
            self, trainer: Any, pl_module: Any, batch: Any, batch_idx: int, dataloader_idx: int
        ) -> None:
            self.seen.append(("start", dataloader_idx))

        def on_train_batch_end(
            self, trainer: Any, pl_module: Any, outputs: Any, batch: Any, batch_idx: int, dataloader_idx: int
        ) -> None:
            self.seen.append(("end", dataloader_idx))

    callback = Legacy()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pl.Trainer(accelerator="cpu", devices=1, callbacks=[callback], **FAST).fit(Tiny(), loader())
    assert callback.seen == [("start", 0), ("end", 0), ("start", 0), ("end", 0)]
    ours = {str(w.message) for w in caught if issubclass(w.category, CompatDeprecationWarning)}
    assert any("on_train_batch_end(..., dataloader_idx)" in text and "removed_hooks" in text for text in ours)
    assert "on_train_batch_end" not in vars(callback) and "on_train_batch_start" not in vars(callback)


def test_a_2x_callback_is_left_alone(shim: Any) -> None:
    import pytorch_lightning as pl

    from tests.compat.lightning.tiny import FAST, Tiny, loader

    class Current(pl.Callback):
        def __init__(self) -> None:
            self.batches = 0

        def on_train_batch_end(self, trainer: Any, pl_module: Any, outputs: Any, batch: Any, batch_idx: int) -> None:
            self.batches += 1

    callback = Current()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pl.Trainer(accelerator="cpu", devices=1, callbacks=[callback], **FAST).fit(Tiny(), loader())
    assert callback.batches == 2
    assert not [w for w in caught if "dataloader_idx" in str(w.message)]
