"""Several optimizers under 1.x automatic optimization, and the 1.x hooks that took ``optimizer_idx``, run on the
real 2.x as 1.5.10 ran them (the losses, order and outputs are compared with real 1.5.10 by
``tests/data/programs/two_optimizers_gan.py`` in ``test_programs.py``; these rows cover the other shapes), and the
module and the Trainer's loop are left exactly as they were after the run."""

from __future__ import annotations

import os
import warnings
from typing import Any

import pytest

from compat._warn import CompatDeprecationWarning


def _two(kind: str) -> Any:
    import torch

    from tests.compat.lightning.tiny import Tiny

    class Two(Tiny):
        """Two optimizers over the same layer's weight and bias; training_step records its optimizer_idx."""

        def training_step(self, batch: Any, batch_idx: int, optimizer_idx: int) -> Any:
            trainable = "".join("T" if p.requires_grad else "f" for p in self.parameters())
            self.ran.append(f"step {batch_idx} {optimizer_idx} {trainable}")
            return self._loss(batch)

        def configure_optimizers(self) -> Any:
            return [torch.optim.SGD([self.layer.weight], lr=0.1), torch.optim.SGD([self.layer.bias], lr=0.1)]

    class Frequencies(Two):
        def configure_optimizers(self) -> Any:
            first, second = Two.configure_optimizers(self)
            return [{"optimizer": first, "frequency": 1}, {"optimizer": second, "frequency": 2}]

    class MissingFrequency(Two):
        def configure_optimizers(self) -> Any:
            first, second = Two.configure_optimizers(self)
            return [{"optimizer": first, "frequency": 1}, {"optimizer": second}]

    class IndexedHooks(Two):
        """Overrides each hook 1.x called with optimizer_idx, declared the 1.x way."""

        def toggle_optimizer(self, optimizer: Any, optimizer_idx: int) -> None:
            self.ran.append(f"toggle {optimizer_idx}")
            super().toggle_optimizer(optimizer)

        def untoggle_optimizer(self, optimizer_idx: int) -> None:
            self.ran.append(f"untoggle {optimizer_idx}")
            super().untoggle_optimizer(self.trainer.optimizers[optimizer_idx])

        def optimizer_zero_grad(self, epoch: int, batch_idx: int, optimizer: Any, optimizer_idx: int) -> None:
            self.ran.append(f"zero_grad {optimizer_idx}")
            optimizer.zero_grad()

        def backward(self, loss: Any, optimizer: Any, optimizer_idx: int, *args: Any, **kwargs: Any) -> None:
            self.ran.append(f"backward {optimizer_idx} {optimizer is self.trainer.optimizers[optimizer_idx]}")
            loss.backward()

        def on_before_optimizer_step(self, optimizer: Any, optimizer_idx: int) -> None:
            self.ran.append(f"before_step {optimizer_idx}")

        def configure_gradient_clipping(
            self, optimizer: Any, optimizer_idx: int, gradient_clip_val: Any = None, gradient_clip_algorithm: Any = None
        ) -> None:
            self.ran.append(f"clip {optimizer_idx} {gradient_clip_val}")

    kinds = {"two": Two, "frequencies": Frequencies, "missing": MissingFrequency, "indexed": IndexedHooks}
    return kinds[kind]()


ROWS = [
    pytest.param(
        "two",
        {},
        ["step 0 0 Tf", "step 0 1 fT", "step 1 0 Tf", "step 1 1 fT"],
        id="each batch runs training_step once per optimizer, only that optimizer's parameters requiring grad",
    ),
    pytest.param(
        "frequencies",
        {"limit_train_batches": 4},
        ["step 0 0 Tf", "step 1 1 fT", "step 2 1 fT", "step 3 0 Tf"],
        id="frequency keys give each optimizer its run of batches in turn",
    ),
    pytest.param(
        "indexed",
        {"limit_train_batches": 1, "gradient_clip_val": 0.5},
        [
            "toggle 0",
            "step 0 0 Tf",
            "zero_grad 0",
            "backward 0 True",
            "before_step 0",
            "clip 0 0.5",
            "untoggle 0",
            "toggle 1",
            "step 0 1 fT",
            "zero_grad 1",
            "backward 1 True",
            "before_step 1",
            "clip 1 0.5",
            "untoggle 1",
        ],
        id="hooks declared with optimizer_idx get the index of the optimizer stepping, in 1.5's order",
    ),
]


@pytest.mark.parametrize(("kind", "flags", "expected"), ROWS)
def test_several_optimizers_run_as_in_1_5(shim: Any, kind: str, flags: dict[str, Any], expected: list[str]) -> None:
    from tests.compat.lightning.tiny import loader, trainer

    model = _two(kind)
    hooks = {name for name in dir(type(model)) if callable(getattr(type(model), name, None))}
    fit = trainer(**flags)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fit.fit(model, loader(n=16))
    assert model.ran == expected
    assert any("manual optimization" in str(w.message) for w in caught if w.category is CompatDeprecationWarning)
    assert fit.global_step == fit.num_training_batches, "1.5 counted batches, not optimizer steps"
    left = [name for name in model.__dict__ if name in hooks or name.startswith("_compat_lightning")]
    assert left == [], "the run left compat's wrappers on the module"
    assert "run" not in vars(fit.fit_loop.epoch_loop.automatic_optimization)
    assert model.automatic_optimization


def test_a_frequency_missing_on_one_optimizer_raises_as_1_5_did(shim: Any) -> None:
    from tests.compat.lightning.tiny import loader, trainer

    with pytest.raises(ValueError, match="A frequency must be given to each optimizer"):
        trainer().fit(_two("missing"), loader())


def test_truncated_backpropagation_with_several_optimizers_names_manual_optimization(shim: Any) -> None:
    from tests.compat.lightning.tiny import loader, trainer

    model = _two("two")
    model.truncated_bptt_steps = 2
    with pytest.raises(shim.RemovedFeatureError, match="manual optimization"):
        trainer().fit(model, loader())


def test_without_the_shim_2x_refuses_several_optimizers(shim: Any) -> None:
    from tests.compat.lightning.tiny import loader, trainer

    model = _two("two")
    shim.uninstall()
    try:
        with pytest.raises(RuntimeError, match="only supported with manual optimization"):
            trainer().fit(model, loader())
    finally:
        shim.install()


def test_ddp_finds_unused_parameters_as_1_5_did(shim: Any) -> None:
    """The toggled optimizers leave the others' parameters without a gradient: 1.5's DDP defaulted to finding them,
    2.x's raises unless told to (an explicit find_unused_parameters is kept)."""
    import torch.distributed

    from tests.compat.lightning.tiny import loader, trainer

    environment = dict(os.environ)  # a DDP run sets MASTER_ADDR, LOCAL_RANK, ...: undone after the test
    model = _two("two")
    fit = trainer(strategy="ddp", accelerator="cpu", devices=1)
    try:
        fit.fit(model, loader())
    finally:
        if torch.distributed.is_initialized():
            torch.distributed.destroy_process_group()
        os.environ.clear()
        os.environ.update(environment)
    assert model.ran[:2] == ["step 0 0 Tf", "step 0 1 fT"]
    assert "find_unused_parameters" not in fit.strategy._ddp_kwargs, "the run left its default on the strategy"
