"""The 1.5 Trainer arguments 2.x removed, applied by the shim as 1.5.10 applied them; the connector attributes; which
checkpoints load with ``weights_only=False``; ``ModelCheckpoint(save_last=True)`` as in 1.5.

What these produce over whole runs (losses, resumed epoch, norms, SWA weights) is compared with real 1.5.10 by
``tests/data/programs/resume_and_progress.py`` in ``test_programs.py``; these rows pin each piece.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path
from typing import Any

import pytest

from compat._warn import CompatDeprecationWarning


def _notices(caught: list[warnings.WarningMessage]) -> list[Any]:
    return [w.message.notice for w in caught if isinstance(w.message, CompatDeprecationWarning)]


def _build(**flags: Any) -> tuple[Any, list[Any]]:
    from tests.compat.lightning import tiny

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        trainer = tiny.trainer(**flags)
    return trainer, _notices(caught)


def _callbacks(trainer: Any, name: str) -> list[Any]:
    return [cb for cb in trainer.callbacks if type(cb).__name__ == name]


CALLBACK_ROWS = [
    pytest.param(
        {"weights_summary": "full", "enable_model_summary": True},
        lambda t: [cb._max_depth for cb in _callbacks(t, "ModelSummary")] == [-1],
        id="weights_summary='full' is ModelSummary(max_depth=-1)",
    ),
    pytest.param(
        {"process_position": 2, "enable_progress_bar": True},
        lambda t: t.progress_bar_callback.process_position == 2,
        id="process_position=2 places the trainer's own progress bar",
    ),
    pytest.param(
        {"stochastic_weight_avg": True},
        lambda t: type(t.callbacks[0]).__name__ == "StochasticWeightAveraging" and t.callbacks[0]._swa_lrs is None,
        id="stochastic_weight_avg=True puts 1.5's SWA (swa_lrs=None) first",
    ),
    pytest.param(
        {"flush_logs_every_n_steps": 3},
        lambda t: len(_callbacks(t, "LegacyTrainerArgument")) == 1,
        id="flush_logs_every_n_steps=3 adds the flushing callback",
    ),
    pytest.param(
        {"terminate_on_nan": False},
        lambda t: _callbacks(t, "LegacyTrainerArgument") == [],
        id="terminate_on_nan=False adds nothing",
    ),
    pytest.param(
        {"log_gpu_memory": "all"},
        lambda t: _callbacks(t, "LegacyTrainerArgument") == [],
        id="log_gpu_memory='all' off the GPU does nothing, as 1.5",
    ),
    pytest.param(
        {"move_metrics_to_cpu": True},
        lambda t: _callbacks(t, "LegacyTrainerArgument") == [],
        id="move_metrics_to_cpu=True is accepted",
    ),
]


@pytest.mark.parametrize(("flags", "check"), CALLBACK_ROWS)
def test_a_removed_argument_becomes_what_15_built(shim: Any, flags: dict[str, Any], check: Any) -> None:
    trainer, notices = _build(**flags)
    assert check(trainer)
    legacy = next(name for name in flags if name not in ("enable_model_summary", "enable_progress_bar"))
    assert any(n.old.startswith(f"`Trainer({legacy}=") and n.rule == "removed_arguments" for n in notices), notices


def test_terminate_on_nan_stops_with_15s_error(shim: Any) -> None:
    from tests.compat.lightning import tiny

    class Poisoned(tiny.Tiny):
        def training_step(self, batch: Any, batch_idx: int) -> Any:
            return super().training_step(batch, batch_idx) * float("nan")

    trainer, _ = _build(terminate_on_nan=True)
    with pytest.raises(ValueError, match=r"The loss returned in `training_step` is nan\."):
        trainer.fit(Poisoned(), tiny.loader())


def test_track_grad_norm_logs_15s_keys(shim: Any) -> None:
    from tests.compat.lightning import tiny

    trainer, _ = _build(track_grad_norm=2)
    trainer.fit(tiny.Tiny(), tiny.loader())
    keys = sorted(k for k in trainer.callback_metrics if k.startswith("grad_"))
    assert "grad_2.0_norm_total_step" in keys and "grad_2.0_norm/layer.weight_epoch" in keys


@pytest.mark.parametrize(
    ("flag", "raises"),
    [
        pytest.param(True, False, id="prepare_data_per_node=True agrees with the module"),
        pytest.param(False, True, id="prepare_data_per_node=False against the module's True is refused as in 1.5"),
    ],
)
def test_prepare_data_per_node_is_checked_as_in_15(shim: Any, flag: bool, raises: bool) -> None:
    from lightning_fabric.utilities.exceptions import MisconfigurationException

    from tests.compat.lightning import tiny

    trainer, _ = _build(prepare_data_per_node=flag)
    if raises:
        with pytest.raises(MisconfigurationException, match="Inconsistent settings found for `prepare_data_per_node`"):
            trainer.fit(tiny.Tiny(), tiny.loader())
    else:
        trainer.fit(tiny.Tiny(), tiny.loader())


def _first_run(root: Path) -> str:
    from tests.compat.lightning import tiny

    trainer, _ = _build(enable_checkpointing=True, default_root_dir=str(root))
    trainer.fit(tiny.Tiny(), tiny.loader())
    return str(trainer.checkpoint_callback.best_model_path)


def test_weights_save_path_is_where_checkpoints_go(shim: Any, tmp_path: Path) -> None:
    from tests.compat.lightning import tiny

    trainer, _ = _build(enable_checkpointing=True, weights_save_path=str(tmp_path / "w"))
    trainer.fit(tiny.Tiny(), tiny.loader())
    assert trainer.checkpoint_callback.dirpath == str(tmp_path / "w" / "checkpoints")  # 1.5, without a logger
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert trainer.weights_save_path == str(tmp_path / "w")


def test_resume_from_checkpoint_is_the_next_fits_ckpt_path_once(shim: Any, tmp_path: Path) -> None:
    from tests.compat.lightning import tiny

    path = _first_run(tmp_path)
    trainer, notices = _build(max_epochs=2, resume_from_checkpoint=path)
    assert any(n.old.startswith("`Trainer(resume_from_checkpoint=") for n in notices)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert trainer.resume_from_checkpoint == path
        trainer.fit(tiny.Tiny(), tiny.loader())
        assert trainer.ckpt_path == path and trainer.resume_from_checkpoint is None  # 1.5: used by one fit
        assert trainer.global_step == 4  # resumed after epoch 0's two steps


def test_a_fit_with_its_own_ckpt_path_leaves_the_resume_path_for_the_next(shim: Any, tmp_path: Path) -> None:
    from tests.compat.lightning import tiny

    path = _first_run(tmp_path)
    trainer, _ = _build(max_epochs=1, resume_from_checkpoint="elsewhere.ckpt")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        trainer.fit(tiny.Tiny(), tiny.loader(), ckpt_path=path)
        assert trainer.resume_from_checkpoint == "elsewhere.ckpt"


@pytest.mark.parametrize(
    ("path", "own"),
    [
        pytest.param("best", True, id="'best' is this trainer's"),
        pytest.param("last", True, id="'last' is this trainer's"),
        pytest.param("{dirpath}/epoch=0-step=2.ckpt", True, id="a file under its ModelCheckpoint dirpath"),
        pytest.param("{dirpath}/../../x.ckpt", False, id="a path that leaves the dirpath"),
        pytest.param("/tmp/downloaded.ckpt", False, id="a foreign path keeps torch's weights_only default"),
        pytest.param(None, False, id="no path"),
    ],
)
def test_which_checkpoints_load_in_full(shim: Any, tmp_path: Path, path: str | None, own: bool) -> None:
    from compat.lightning._checkpoints import written_here
    from tests.compat.lightning import tiny

    trainer, _ = _build(enable_checkpointing=True, default_root_dir=str(tmp_path))
    trainer.fit(tiny.Tiny(), tiny.loader())
    dirpath = trainer.checkpoint_callback.dirpath
    assert written_here(trainer, path.format(dirpath=dirpath) if path else None) is own


def test_test_best_loads_a_checkpoint_with_objects_torch_refuses_by_default(shim: Any, tmp_path: Path) -> None:
    from tests.compat.lightning import tiny

    class WithObject(tiny.Tiny):
        def on_save_checkpoint(self, checkpoint: dict[str, Any]) -> None:
            checkpoint["an_object"] = Path("not/a/tensor")  # weights_only=True refuses to unpickle it

    trainer, _ = _build(enable_checkpointing=True, default_root_dir=str(tmp_path))
    trainer.fit(WithObject(), tiny.loader(), tiny.loader())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        trainer.test(ckpt_path="best", dataloaders=tiny.loader())
    assert any("weights_only" in n.old for n in _notices(caught))


def test_save_last_writes_last_ckpt_every_epoch_as_15(shim: Any, tmp_path: Path) -> None:
    import torch
    from pytorch_lightning.callbacks import ModelCheckpoint

    from tests.compat.lightning import tiny

    class Worse(tiny.Tiny):  # the monitored value never improves after epoch 0: 2.6 keeps last.ckpt at epoch 0
        def validation_step(self, batch: Any, batch_idx: int) -> Any:
            self.log("val_loss", float(self.current_epoch))

    checkpoint = ModelCheckpoint(dirpath=str(tmp_path), monitor="val_loss", save_last=True)
    trainer, _ = _build(max_epochs=3, callbacks=[checkpoint], enable_checkpointing=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        trainer.fit(Worse(), tiny.loader(), tiny.loader())
    saved = torch.load(os.path.join(tmp_path, "last.ckpt"), weights_only=False)
    assert saved["epoch"] == 2


CONNECTOR_ROWS = [
    pytest.param("num_processes", 1, id="num_processes"),
    pytest.param("num_gpus", 0, id="num_gpus off the GPU"),
    pytest.param("parallel_device_ids", None, id="parallel_device_ids off the GPU"),
    pytest.param("use_ddp", False, id="use_ddp on one device"),
    pytest.param("use_cpu", True, id="use_cpu"),
    pytest.param("use_gpu", False, id="use_gpu"),
    pytest.param("num_ipus", 0, id="num_ipus"),
    pytest.param("is_slurm_managing_tasks", False, id="is_slurm_managing_tasks outside SLURM"),
]


@pytest.mark.parametrize(("name", "expected"), CONNECTOR_ROWS)
def test_a_15_connector_attribute_answers_as_15(shim: Any, name: str, expected: Any) -> None:
    trainer, _ = _build()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert getattr(trainer._accelerator_connector, name) == expected
    assert [n.old for n in _notices(caught)] == [f"`trainer._accelerator_connector.{name}`"]


def test_should_rank_save_checkpoint_is_back_on_the_strategy(shim: Any) -> None:
    trainer, _ = _build()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert trainer.training_type_plugin.should_rank_save_checkpoint is True
        trainer.accelerator.barrier()  # 1.5's Accelerator forwarded it to its plugin


def test_tune_runs_the_routines_the_flags_ask_for(shim: Any, tmp_path: Path) -> None:
    from torch.utils.data import DataLoader

    from tests.compat.lightning import tiny

    class Tunable(tiny.Tiny):
        def __init__(self) -> None:
            super().__init__()
            self.batch_size = 2
            self.lr = 0.1

        def train_dataloader(self) -> Any:
            return DataLoader(tiny.loader(n=32).dataset, self.batch_size)

    model = Tunable()
    flags = {"auto_scale_batch_size": "power", "auto_lr_find": True, "limit_train_batches": None}
    trainer, notices = _build(default_root_dir=str(tmp_path), **flags)  # the Tuner writes a checkpoint there
    assert {n.old.partition("=")[0] for n in notices} >= {"`Trainer(auto_scale_batch_size", "`Trainer(auto_lr_find"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kwargs = {"scale_batch_size_kwargs": {"max_trials": 2}, "lr_find_kwargs": {"num_training": 20}}
        result = trainer.tune(model, val_dataloaders=tiny.loader(), **kwargs)
    assert sorted(result) == ["lr_find", "scale_batch_size"]
    assert result["scale_batch_size"] == model.batch_size > 2
