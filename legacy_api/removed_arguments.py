"""Trainer arguments of Lightning 1.5 that later releases removed, outside the accelerator connector's flags.

Standard library only. The removal release of each is the first whose ``Trainer.__init__`` lacks it, read from the
real packages (1.5.10, 1.6.5, 1.7.7, 1.8.6, 1.9.5 and 2.0.9: legacy_api/LIGHTNING_2X.md); 1.5 deprecated all of
them (``reload_dataloaders_every_epoch`` already in 1.4). Each row says what the same setting is called since:
``defaults`` are the values that meant "the default" (dropping the argument is exact), ``renamed`` a flag that reads
the same value (``exact`` maps a literal to its new spelling), and ``todo`` names the replacement where none is a
flag (a callback, a logger argument, ``fit(ckpt_path=)``), and ``fit_argument`` the ``fit()`` argument
that takes the value where the code shows the one ``fit`` the Trainer gets.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from legacy_api.lightning15 import FLAG_VERSIONS
from legacy_api.renames import version_tuple


@dataclass(frozen=True)
class RemovedArgument:
    name: str
    removed_in: str
    defaults: tuple[Any, ...]
    todo: str
    renamed: str | None = None
    #: Literal value -> the renamed flag's value (``None`` in it: drop the argument); absent: the same value.
    exact: Mapping[Any, Any] = field(default_factory=dict)
    #: The ``fit()`` argument that takes the value where the code fits the Trainer once (``ckpt_path``).
    fit_argument: str | None = None
    #: 1.5 read it only in ``Trainer.tune()`` (``Tuner._tune``): where nothing runs that, it did nothing.
    tune_only: bool = False
    #: Why no value of it changed what a run does with Lightning's own loggers (:data:`LIGHTNING_LOGGERS_15`), checked
    #: in 1.5's and the target's source: dropped whatever it holds next to them (empty: it did change something).
    no_effect: str = ""


#: The loggers 1.5.10 shipped (``pytorch_lightning.loggers``): their ``save()`` writes what they hold, so one call
#: more or less changes nothing (a project's own logger may count them).
LIGHTNING_LOGGERS_15 = (
    "TensorBoardLogger",
    "CSVLogger",
    "CometLogger",
    "MLFlowLogger",
    "NeptuneLogger",
    "TestTubeLogger",
    "WandbLogger",
)

REMOVED_ARGUMENTS: tuple[RemovedArgument, ...] = (
    # 1.4.9's Trainer took it (deprecated in 1.3; 0 and None meant no truncation: ``self.trainer.truncated_bptt_steps
    # or 0``), 1.5.10's does not; LightningModule.truncated_bptt_steps, its 1.3 successor, is gone from 2.0.9 on.
    RemovedArgument(
        "truncated_bptt_steps",
        "1.5",
        (None, 0),
        "1.4 split each batch along time into chunks of N steps, and 2.x has no truncated backprop: "
        "set self.automatic_optimization = False and split the sequence in training_step (manual optimization)",
    ),
    RemovedArgument(
        "checkpoint_callback",
        "1.7",
        (None,),
        "use enable_checkpointing= (a bool: 1.5 read a ModelCheckpoint object here as True and did not use it; "
        "to use it, pass it in callbacks=)",
        renamed="enable_checkpointing",
    ),
    RemovedArgument(
        "reload_dataloaders_every_epoch",
        "1.6",
        (False,),
        "use reload_dataloaders_every_n_epochs=1",
        renamed="reload_dataloaders_every_n_epochs",
        exact={True: 1},
    ),
    RemovedArgument(
        "progress_bar_refresh_rate",
        "1.7",
        (None, 1),
        "pass callbacks=[TQDMProgressBar(refresh_rate=N)] (pytorch_lightning.callbacks)",
        renamed="enable_progress_bar",
        exact={0: False},
    ),
    RemovedArgument(
        "weights_summary",
        "1.7",
        ("top",),
        'pass callbacks=[ModelSummary(max_depth=-1)] for "full" (pytorch_lightning.callbacks)',
        renamed="enable_model_summary",
        exact={None: False},
    ),
    RemovedArgument("process_position", "1.7", (0,), "pass callbacks=[TQDMProgressBar(process_position=N)]"),
    # 1.5.10's LoggerConnector.log_metrics saved the logger after every logging call (logger.save()), as 2.x's
    # _LoggerConnector.log_metrics does; the flag only added saves every N steps in between, with nothing new to save.
    RemovedArgument(
        "flush_logs_every_n_steps",
        "1.7",
        (100,),
        "Lightning's loggers are saved after every logging call anyway, but a logger of your own also got a save() "
        "every N steps: call it from a callback's on_train_batch_end if it needs them, else drop the argument",
        no_effect="1.5 saved the logger after every logging call anyway, as 2.x does (the flag added saves in "
        "between, with nothing new in them)",
    ),
    RemovedArgument("log_gpu_memory", "1.7", (None, False), "pass callbacks=[DeviceStatsMonitor()]"),
    RemovedArgument(
        "prepare_data_per_node", "1.7", (True,), "set prepare_data_per_node on the LightningModule/DataModule"
    ),
    RemovedArgument(
        "stochastic_weight_avg", "1.7", (False,), "pass callbacks=[StochasticWeightAveraging(swa_lrs=...)]"
    ),
    RemovedArgument(
        # 1.5.10's default is None (``if terminate_on_nan is not None``: only then deprecated and checked)
        "terminate_on_nan",
        "1.7",
        (None, False),
        "check the loss yourself (detect_anomaly=True is close, not the same)",
    ),
    RemovedArgument("weights_save_path", "1.8", (None,), "use default_root_dir= or ModelCheckpoint(dirpath=...)"),
    RemovedArgument(
        "track_grad_norm", "2.0", (-1,), "log pytorch_lightning.utilities.grad_norm(...) in on_before_optimizer_step"
    ),
    RemovedArgument(
        "resume_from_checkpoint", "2.0", (None,), "pass ckpt_path= to trainer.fit() instead", fit_argument="ckpt_path"
    ),
    RemovedArgument(
        "auto_lr_find", "2.0", (False,), "run Tuner(trainer).lr_find(model) (pytorch_lightning.tuner)", tune_only=True
    ),
    RemovedArgument(
        "auto_scale_batch_size",
        "2.0",
        (False, None),
        "run Tuner(trainer).scale_batch_size(model) (pytorch_lightning.tuner)",
        tune_only=True,
    ),
    RemovedArgument("move_metrics_to_cpu", "2.0", (False,), "move logged metrics to the CPU in your own code"),
    RemovedArgument(
        "multiple_trainloader_mode",
        "2.0",
        ("max_size_cycle",),
        "wrap the train loaders in CombinedLoader(loaders, mode=...) (pytorch_lightning.utilities)",
    ),
)


def refused_at(key: str, target: tuple[int, ...]) -> bool:
    """Whether the Trainer of the release ``target`` refuses the 1.5 argument ``key`` (it raises a TypeError)."""
    removed = next((row.removed_in for row in REMOVED_ARGUMENTS if row.name == key), None)
    removed = removed or FLAG_VERSIONS.get(key, (None, None))[1]
    return removed is not None and target >= version_tuple(removed)
