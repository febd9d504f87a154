"""What 2.x removed with nothing to run instead: a RemovedFeatureError naming the replacement at the use, that is also
the error plain 2.x raises there, so feature probes (``hasattr``, ``try: import ... except ImportError``) answer as
on plain 2.x. The rows cover every upgrade-guide row in ``test_guide_rows.py``; these pin the three shapes."""

from __future__ import annotations

import importlib
from typing import Any

import pytest


def test_a_removed_member_names_its_replacement(shim: Any) -> None:
    import pytorch_lightning as pl

    trainer = pl.Trainer(logger=False, enable_checkpointing=False, enable_progress_bar=False)
    with pytest.raises(shim.RemovedFeatureError, match=r"running_sanity_check.*instead: Trainer.sanity_checking"):
        trainer.running_sanity_check  # noqa: B018 - the read is the use
    with pytest.raises(AttributeError):
        trainer.running_sanity_check  # noqa: B018
    assert not hasattr(trainer, "running_sanity_check")
    assert getattr(trainer, "running_sanity_check", "default") == "default"


def test_a_removed_member_is_the_subclass_own_when_it_defines_one(shim: Any) -> None:
    import pytorch_lightning as pl

    class Data(pl.LightningDataModule):  # type: ignore[misc]
        has_setup_fit = "mine"

    assert Data().has_setup_fit == "mine"
    with pytest.raises(shim.RemovedFeatureError, match="has_setup_fit"):
        pl.LightningDataModule().has_setup_fit  # noqa: B018


@pytest.mark.parametrize(
    ("statement", "names"),
    [
        pytest.param("from pytorch_lightning.callbacks import GPUStatsMonitor", "DeviceStatsMonitor", id="a name"),
        pytest.param(
            "from pytorch_lightning.utilities.finite_checks import detect_nan_parameters", "removed", id="a module"
        ),
        pytest.param("import pytorch_lightning.metrics", "torchmetrics", id="pytorch_lightning.metrics (gone in 1.5)"),
    ],
)
def test_a_removed_import_names_its_replacement_and_is_an_import_error(shim: Any, statement: str, names: str) -> None:
    with pytest.raises(shim.RemovedFeatureError, match=names):
        exec(statement, {})
    with pytest.raises(ImportError):
        exec(statement, {})


def test_probing_a_removed_name_answers_as_plain_2x(shim: Any) -> None:
    callbacks = importlib.import_module("pytorch_lightning.callbacks")
    assert not hasattr(callbacks, "GPUStatsMonitor")
    assert getattr(callbacks, "XLAStatsMonitor", None) is None
    with pytest.raises(AttributeError, match="DeviceStatsMonitor"):
        callbacks.GPUStatsMonitor  # noqa: B018


def test_uninstall_takes_the_graveyard_away(shim: Any) -> None:
    import pytorch_lightning as pl

    shim.uninstall()
    try:
        with pytest.raises(ImportError) as raised:
            exec("from pytorch_lightning.callbacks import GPUStatsMonitor", {})
        assert not isinstance(raised.value, shim.RemovedFeatureError)
        assert "running_sanity_check" not in pl.Trainer.__dict__
    finally:
        shim.install()
