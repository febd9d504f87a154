"""A 1.x hook neither Lightning 2.x nor the shim calls warns when the Trainer runs (``compat.lightning._unserved_hooks``):
one row per owner (module, callback), and a hook the shim serves or 2.x still has warns nothing of the kind."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from compat._warn import CompatDeprecationWarning


def _owners(kind: str) -> tuple[Any, list[Any]]:
    import pytorch_lightning as pl

    from tests.compat.lightning.tiny import Tiny

    class DataloaderHook(Tiny):
        def on_train_dataloader(self) -> None:  # 1.5 called it before train_dataloader(); 1.6 stopped
            self.ran.append("on_train_dataloader")

    class HpcSave(Tiny):
        def on_hpc_save(self, checkpoint: Any) -> None:
            self.ran.append("on_hpc_save")

    class Served(Tiny):
        def training_epoch_end(self, outputs: Any) -> None:  # the shim runs it
            self.ran.append("training_epoch_end")

    class KeyboardCallback(pl.Callback):
        def on_keyboard_interrupt(self, trainer: Any, pl_module: Any) -> None:  # the shim runs it (on_exception)
            pass

    class QueueCallback(pl.Callback):
        def add_to_queue(self, queue: Any) -> None:  # no Callback hook in any release: not a hook at all
            pass

    rows: dict[str, tuple[Any, list[Any]]] = {
        "dataloader": (DataloaderHook(), []),
        "hpc": (HpcSave(), []),
        "served": (Served(), [KeyboardCallback(), QueueCallback()]),
    }
    return rows[kind]


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        pytest.param("dataloader", "on_train_dataloader", id="on_train_dataloader warns naming train_dataloader"),
        pytest.param("hpc", "on_hpc_save", id="on_hpc_save warns naming on_save_checkpoint"),
        pytest.param("served", None, id="hooks the shim runs, and methods no release called, warn nothing"),
    ],
)
def test_an_unserved_hook_warns_at_the_run(shim: Any, kind: str, expected: str | None) -> None:
    from tests.compat.lightning.tiny import loader, trainer

    model, callbacks = _owners(kind)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        trainer(callbacks=callbacks).fit(model, loader())
    never = [
        str(w.message)
        for w in caught
        if issubclass(w.category, CompatDeprecationWarning) and "never call" in str(w.message)
    ]
    if expected is None:
        assert never == []
    else:
        assert len(never) == 1 and expected in never[0] and "removed_hooks" in never[0], never
        assert expected not in model.ran, "the shim does not call it: it says so"
