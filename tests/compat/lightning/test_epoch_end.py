"""1.x module hooks that 2.0 removed or calls differently run on the real 2.x as 1.5 ran them (what they receive is
compared with real 1.5.10 in ``test_programs.py``; these rows cover the other shapes), and the module is left
exactly as it was after the run."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from compat._warn import CompatDeprecationWarning


def _model(kind: str) -> Any:
    from tests.compat.lightning.tiny import Tiny

    class StepEnd(Tiny):
        def training_step_end(self, output: Any) -> Any:
            self.ran.append("training_step_end")
            return output * 0  # 1.5 optimized what *_step_end returned

        def validation_step_end(self, output: Any) -> Any:
            return {"from_step_end": output}

        def validation_epoch_end(self, outputs: Any) -> None:
            self.ran.append(f"validation_epoch_end {sorted(outputs[0])}")

    class OptimizerIdx(Tiny):
        def training_step(self, batch: Any, batch_idx: int, optimizer_idx: int) -> Any:
            self.ran.append(f"optimizer_idx={optimizer_idx}")
            return super().training_step(batch, batch_idx)

    class CallsByName(Tiny):
        def validation_epoch_end(self, outputs: Any) -> None:
            self.ran.append(f"validation_epoch_end {len(outputs)}")

        def test_epoch_end(self, outputs: Any) -> None:
            self.validation_epoch_end(outputs)  # a common 1.x pattern: the hook called by name

    return {"step_end": StepEnd, "optimizer_idx": OptimizerIdx, "by_name": CallsByName}[kind]()


ROWS = [
    pytest.param("step_end", "fit", "training_step_end", id="training_step_end is called on the step output"),
    pytest.param(
        "step_end",
        "validate",
        "validation_epoch_end ['from_step_end']",
        id="validation_epoch_end gets what validation_step_end returned",
    ),
    pytest.param("optimizer_idx", "fit", "optimizer_idx=0", id="training_step gets optimizer_idx=0 (one optimizer)"),
    pytest.param("by_name", "test", "validation_epoch_end 2", id="test_epoch_end calling validation_epoch_end by name"),
]


@pytest.mark.parametrize(("kind", "method", "expected"), ROWS)
def test_legacy_module_hook_runs(shim: Any, kind: str, method: str, expected: str) -> None:
    from tests.compat.lightning.tiny import loader, trainer

    model = _model(kind)
    hooks = {name for name in dir(type(model)) if callable(getattr(type(model), name, None))}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        getattr(trainer(), method)(model, loader())
    assert expected in model.ran
    assert any(issubclass(w.category, CompatDeprecationWarning) for w in caught)
    left = [name for name in model.__dict__ if name in hooks or name.startswith("_compat_lightning")]
    assert left == [], "the run left compat's wrappers on the module"


def test_the_validator_still_refuses_without_the_shim(shim: Any) -> None:
    from tests.compat.lightning.tiny import loader, trainer

    model = _model("by_name")
    shim.uninstall()
    try:
        with pytest.raises(NotImplementedError, match="validation_epoch_end"):
            trainer().validate(model, loader())
    finally:
        shim.install()


def _each_epoch() -> tuple[Any, Any]:
    import pytorch_lightning as pl

    from tests.compat.lightning.tiny import Tiny

    class EachEpoch(Tiny):
        def on_epoch_start(self) -> None:
            self.ran.append("module start")

        def on_epoch_end(self) -> None:
            self.ran.append("module end")
            self.log("logged_in_on_epoch_end", 1.0)  # 1.5 let on_epoch_end log per epoch

    class Callback(pl.Callback):
        def on_epoch_start(self, trainer: Any, pl_module: Any) -> None:
            pl_module.ran.append("callback start")

        def on_epoch_end(self, trainer: Any, pl_module: Any) -> None:
            pl_module.ran.append("callback end")

    return EachEpoch(), Callback()


@pytest.mark.parametrize(
    ("method", "epochs"),
    [
        pytest.param("fit", 2, id="fit: around each train epoch (no validation loader)"),
        pytest.param("validate", 1, id="validate: around the validation epoch"),
        pytest.param("test", 1, id="test: around the test epoch"),
    ],
)
def test_on_epoch_start_and_end_run_around_each_epoch(shim: Any, method: str, epochs: int) -> None:
    from tests.compat.lightning.tiny import loader, trainer

    model, callback = _each_epoch()
    run = trainer(callbacks=[callback], max_epochs=epochs)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        getattr(run, method)(model, loader())
    hooks = [step for step in model.ran if step not in ("train", "validate", "test")]
    assert hooks == ["callback start", "module start", "callback end", "module end"] * epochs
    assert "logged_in_on_epoch_end" in run.callback_metrics
    assert sum("on_epoch_" in str(w.message) for w in caught if w.category is CompatDeprecationWarning) >= 2
