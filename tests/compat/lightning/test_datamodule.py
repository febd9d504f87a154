"""``LightningDataModule.size()``, ``dims`` and ``*_transforms`` (removed in 1.7) on the real 2.x answer as 1.5.10's
did (``core/datamodule.py``), each use warning with the replacement from ``legacy_api.removed_members``."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from compat._warn import CompatDeprecationWarning

ROWS = [
    pytest.param(lambda dm: dm.size(), (1, 28, 28), id="size() is dims"),
    pytest.param(lambda dm: dm.size(1), 28, id="size(dim) indexes dims"),
    pytest.param(lambda dm: dm.dims, (1, 28, 28), id="dims reads what __init__ set"),
    pytest.param(lambda dm: dm.train_transforms, None, id="train_transforms defaults to None"),
]


@pytest.mark.parametrize(("use", "expected"), ROWS)
def test_datamodule_member_answers_as_in_1_5(shim: Any, use: Any, expected: Any) -> None:
    import pytorch_lightning as pl

    class MNISTLike(pl.LightningDataModule):
        def __init__(self) -> None:
            super().__init__()
            self.dims = (1, 28, 28)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert use(MNISTLike()) == expected
    messages = [str(w.message) for w in caught if issubclass(w.category, CompatDeprecationWarning)]
    assert messages and all("1.7 dropped it from LightningDataModule" in m for m in messages)


def test_a_fresh_datamodule_has_1_5_defaults(shim: Any) -> None:
    import pytorch_lightning as pl

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CompatDeprecationWarning)
        assert pl.LightningDataModule().size() == ()


def test_a_datamodules_15_checkpoint_hooks_run_at_save_and_restore(shim: Any, tmp_path: Any) -> None:
    """1.5.10's checkpoint connector: ``datamodule.on_save_checkpoint(checkpoint)`` after the module's, and
    ``datamodule.on_load_checkpoint(checkpoint)`` in ``restore_datamodule`` (1.5.10 on Python 3.11 cannot fit with a
    data module at all, ``_has_setup_TrainerFn.FITTING``, so this is pinned here rather than in a program)."""
    import pytorch_lightning as pl

    from tests.compat.lightning import tiny

    restored: list[Any] = []

    class Data(pl.LightningDataModule):  # type: ignore[misc]
        def train_dataloader(self) -> Any:
            return tiny.loader()

        def on_save_checkpoint(self, checkpoint: dict[str, Any]) -> None:
            checkpoint["data_note"] = "kept"

        def on_load_checkpoint(self, checkpoint: dict[str, Any]) -> None:
            restored.append(checkpoint.get("data_note"))

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = tiny.trainer(enable_checkpointing=True, default_root_dir=str(tmp_path))
        first.fit(tiny.Tiny(), datamodule=Data())
        path = first.checkpoint_callback.best_model_path
        tiny.trainer(max_epochs=2).fit(tiny.Tiny(), datamodule=Data(), ckpt_path=path)
    assert restored == ["kept"]
    olds = {w.message.notice.old for w in caught if isinstance(w.message, CompatDeprecationWarning)}
    assert {"`Data.on_save_checkpoint`", "`Data.on_load_checkpoint`"} <= olds
