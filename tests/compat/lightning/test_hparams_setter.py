"""1.2's ``self.hparams = hparams`` (setter deprecated in 1.1, removed in 1.3) on the real 2.x under the shim: the
module builds, holds what 1.2.10's setter held (an AttributeDict of a Namespace's or dict's values, under the name of
the ``__init__`` argument), comes back from a checkpoint with them, and the assignment warns with the rewrite."""

from __future__ import annotations

import argparse
import warnings
from pathlib import Path
from typing import Any

import pytest

from compat._warn import CompatDeprecationWarning


def _legacy_module() -> type:
    from tests.compat.lightning import tiny

    class Legacy(tiny.Tiny):
        def __init__(self, hparams: Any) -> None:
            super().__init__()
            self.hparams = hparams

    return Legacy


@pytest.mark.parametrize("given", [argparse.Namespace(lr=0.1), {"lr": 0.1}], ids=["namespace", "dict"])
def test_the_1_2_setter_keeps_the_hyperparameters(shim: Any, given: Any, tmp_path: Path) -> None:
    from tests.compat.lightning import tiny

    legacy = _legacy_module()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = legacy(given)
    messages = [str(w.message) for w in caught if issubclass(w.category, CompatDeprecationWarning)]
    assert messages and "save_hyperparameters" in messages[0] and "hparams_setter" in messages[0]
    assert dict(model.hparams) == {"lr": 0.1} and model._hparams_name == "hparams"
    trainer = tiny.trainer()
    trainer.fit(model, tiny.loader())
    trainer.save_checkpoint(tmp_path / "m.ckpt")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CompatDeprecationWarning)
        back = legacy.load_from_checkpoint(tmp_path / "m.ckpt", weights_only=False)
    assert dict(back.hparams) == {"lr": 0.1}


def test_without_the_shim_the_assignment_raises() -> None:
    legacy = _legacy_module()
    with pytest.raises(AttributeError):
        legacy({"lr": 0.1})
