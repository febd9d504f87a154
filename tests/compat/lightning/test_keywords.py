"""The keywords 1.6 removed (``legacy_api.keywords.RENAMED``) on the real 2.x: passed under their new names, with one
warning naming the new keyword; a tiny module trains/validates/tests through each Trainer method row."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from compat._warn import CompatDeprecationWarning
from legacy_api.keywords import RENAMED

#: Trainer method -> the stage its loader feeds (what Tiny records).
STAGES = {"fit": "train", "validate": "validate", "test": "test"}


def _trainer_rows() -> list[Any]:
    rows = []
    for (owner, old), new in sorted(RENAMED.items()):
        method = owner.partition(".")[2]
        if owner.startswith("Trainer.") and method in STAGES:
            rows.append(pytest.param(method, old, new, id=f"trainer.{method}({old}=) is {method}({new}=)"))
    return rows


@pytest.mark.parametrize(("method", "old", "new"), _trainer_rows())
def test_trainer_method_takes_the_old_keyword(shim: Any, method: str, old: str, new: str) -> None:
    from tests.compat.lightning.tiny import Tiny, loader, trainer

    model = Tiny()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        getattr(trainer(), method)(model, **{old: loader()})
    assert STAGES[method] in model.ran
    ours = [str(w.message) for w in caught if issubclass(w.category, CompatDeprecationWarning)]
    assert len(ours) == 1 and f"({new}=...)" in ours[0] and "removed_keywords" in ours[0]


def test_model_checkpoint_every_n_val_epochs(shim: Any, tmp_path: Any) -> None:
    from pytorch_lightning.callbacks import ModelCheckpoint

    assert RENAMED[("pytorch_lightning.callbacks.ModelCheckpoint", "every_n_val_epochs")] == "every_n_epochs"
    with pytest.warns(CompatDeprecationWarning, match="every_n_epochs"):
        checkpoint = ModelCheckpoint(dirpath=tmp_path, every_n_val_epochs=3)
    assert checkpoint._every_n_epochs == 3


def test_uninstall_restores_the_methods(shim: Any) -> None:
    import pytorch_lightning as pl

    wrapped = pl.Trainer.__dict__["test"]
    shim.uninstall()
    try:
        assert pl.Trainer.__dict__["test"] is not wrapped and not hasattr(pl.Trainer.test, "__wrapped__")
    finally:
        shim.install()


def test_a_module_method_and_a_module_function_take_the_old_keyword(shim: Any) -> None:
    """Rows owned by a LightningModule method (``self.log(sync_dist_op=)``) and by a module's function
    (``is_overridden(model=)``) are wrapped where they live, not as classes."""
    import pytorch_lightning as pl
    from pytorch_lightning.utilities import model_helpers

    assert RENAMED[("pytorch_lightning.LightningModule.log", "sync_dist_op")] == "reduce_fx"
    assert hasattr(pl.LightningModule.__dict__["log"], "__wrapped__")
    with pytest.warns(CompatDeprecationWarning, match="instance="):
        assert model_helpers.is_overridden("training_step", model=pl.LightningModule()) is False
