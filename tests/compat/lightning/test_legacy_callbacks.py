"""The Callback hooks 2.x dropped run where 1.5.10 ran them, and 1.5's callback state round-trips through a
checkpoint. The order over whole runs is compared with real 1.5.10 by ``tests/data/programs/legacy_callback_hooks.py``
(``test_programs.py``); these rows pin the pieces the program cannot show."""

from __future__ import annotations

import signal
import warnings
from pathlib import Path
from typing import Any

import pytest

from compat._warn import CompatDeprecationWarning


def _fit(callback: Any, model: Any = None, **flags: Any) -> list[str]:
    from tests.compat.lightning import tiny

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tiny.trainer(callbacks=[callback], **flags).fit(model or tiny.Tiny(), tiny.loader())
    return [str(w.message) for w in caught if isinstance(w.message, CompatDeprecationWarning)]


def test_on_keyboard_interrupt_runs_before_on_exception(shim: Any) -> None:
    import pytorch_lightning as pl

    from tests.compat.lightning import tiny

    class Interrupted(tiny.Tiny):
        def training_step(self, batch: Any, batch_idx: int) -> Any:
            raise KeyboardInterrupt

    class Legacy(pl.Callback):  # type: ignore[misc]
        def __init__(self) -> None:
            self.calls: list[str] = []

        def on_keyboard_interrupt(self, trainer: Any, pl_module: Any) -> None:
            self.calls.append("on_keyboard_interrupt")

        def on_exception(self, trainer: Any, pl_module: Any, exception: BaseException) -> None:
            self.calls.append(f"on_exception {type(exception).__name__}")

    callback = Legacy()
    handler = signal.getsignal(signal.SIGINT)
    try:
        with pytest.raises(SystemExit):  # 2.x's graceful shutdown exits; 1.5 returned from fit
            _fit(callback, Interrupted())
    finally:
        signal.signal(signal.SIGINT, handler)  # 2.x ignores further Ctrl+C while it shuts down
    assert callback.calls == ["on_keyboard_interrupt", "on_exception KeyboardInterrupt"]


def test_on_keyboard_interrupt_is_not_run_for_other_exceptions(shim: Any) -> None:
    import pytorch_lightning as pl

    from tests.compat.lightning import tiny

    class Failing(tiny.Tiny):
        def training_step(self, batch: Any, batch_idx: int) -> Any:
            raise RuntimeError("boom")

    class Legacy(pl.Callback):  # type: ignore[misc]
        interrupted = False

        def on_keyboard_interrupt(self, trainer: Any, pl_module: Any) -> None:
            self.interrupted = True

    callback = Legacy()
    with pytest.raises(RuntimeError, match="boom"):
        _fit(callback, Failing())
    assert callback.interrupted is False


@pytest.mark.parametrize(
    ("load_parameter", "gets"),
    [
        pytest.param("callback_state", "state", id="1.5's on_load_checkpoint(callback_state) gets the saved state"),
        pytest.param("checkpoint", "checkpoint", id="2.x's on_load_checkpoint(checkpoint) gets the checkpoint"),
    ],
)
def test_a_returned_callback_state_is_saved_and_handed_back(
    shim: Any, tmp_path: Path, load_parameter: str, gets: str
) -> None:
    import pytorch_lightning as pl

    from tests.compat.lightning import tiny

    seen: list[Any] = []
    namespace: dict[str, Any] = {"seen": seen}
    exec(
        f"def on_load_checkpoint(self, trainer, pl_module, {load_parameter}):\n    seen.append({load_parameter})\n",
        namespace,
    )

    class Counter(pl.Callback):  # type: ignore[misc]
        on_load_checkpoint = namespace["on_load_checkpoint"]

        def on_save_checkpoint(self, trainer: Any, pl_module: Any, checkpoint: dict[str, Any]) -> dict[str, int]:
            return {"count": 3}

    trainer = tiny.trainer(callbacks=[Counter()], enable_checkpointing=True, default_root_dir=str(tmp_path))
    trainer.fit(tiny.Tiny(), tiny.loader())
    path = trainer.checkpoint_callback.best_model_path
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tiny.trainer(callbacks=[Counter()], max_epochs=2).fit(tiny.Tiny(), tiny.loader(), ckpt_path=path)
    assert seen == [{"count": 3}] if gets == "state" else "callbacks" in seen[0] and "state_dict" in seen[0]


def test_init_hooks_see_the_trainer(shim: Any) -> None:
    import pytorch_lightning as pl

    from tests.compat.lightning import tiny

    class Legacy(pl.Callback):  # type: ignore[misc]
        def __init__(self) -> None:
            self.trainers: list[Any] = []

        def on_init_start(self, trainer: Any) -> None:
            self.trainers.append(trainer)

        def on_init_end(self, trainer: Any) -> None:
            self.trainers.append(trainer)

    callback = Legacy()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        trainer = tiny.trainer(callbacks=[callback])
    assert callback.trainers == [trainer, trainer]
    texts = [str(w.message) for w in caught if isinstance(w.message, CompatDeprecationWarning)]
    assert any("Legacy.on_init_start" in text and "removed_hooks" in text for text in texts)


def test_on_configure_sharded_model_runs_after_the_modules_configure_model(shim: Any) -> None:
    import pytorch_lightning as pl

    from tests.compat.lightning import tiny

    calls: list[str] = []

    class Configured(tiny.Tiny):
        def configure_model(self) -> None:
            calls.append("configure_model")

    class Legacy(pl.Callback):  # type: ignore[misc]
        def on_configure_sharded_model(self, trainer: Any, pl_module: Any) -> None:
            calls.append("on_configure_sharded_model")

    _fit(Legacy(), Configured())
    assert calls == ["configure_model", "on_configure_sharded_model"]
